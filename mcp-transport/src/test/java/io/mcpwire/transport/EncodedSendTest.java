package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.jsonrpc.MessageTooLargeException;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Messages the caller serialized itself go out as they are, one line each, and settle what they answer. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EncodedSendTest {
    private static final Duration T = Duration.ofSeconds(30);

    /** Answers each request with text it encoded itself: pretty-printed, or over the limit for "big". */
    private static final class EncodingServer implements TransportListener {
        final StdioTransport transport;
        final List<Throwable> sendFailures = new CopyOnWriteArrayList<>();
        final CompletableFuture<TransportClosed> closed = new CompletableFuture<>();

        EncodingServer(StdioTransport transport) {
            this.transport = transport;
            transport.start(this);
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            if (!(message instanceof JsonRpcRequest r)) {
                return;
            }
            try {
                if (r.method().equals("big")) {
                    transport.sendEncodedAnswer(r.id(), "{\"jsonrpc\":\"2.0\",\"id\":" + r.id() + ",\"result\":{\"x\":\""
                            + "x".repeat(4096) + "\"}}");
                } else {
                    transport.sendEncoded("{\n  \"jsonrpc\" : \"2.0\",\r\n  \"method\" : \"notifications/message\"\n}");
                    transport.sendEncodedAnswer(r.id(), "{\n  \"jsonrpc\" : \"2.0\",\n  \"id\" : " + r.id()
                            + ",\n  \"result\" : { \"text\" : \"a\\nb\" }\n}");
                }
            } catch (IOException | RuntimeException e) {
                sendFailures.add(e);
            }
        }

        @Override
        public void onDecodeError(DecodeError error) {
        }

        @Override
        public void onClosed(TransportClosed c) {
            closed.complete(c);
        }
    }

    @Test
    void prettyPrintedTextGoesOutAsOneLineEachAndTheAnswerSettlesItsRequest() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EncodingServer server = new EncodingServer(StdioTransport.builder().platform(fake).build());
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"pretty\"}");
        fake.client().closeInput();
        TransportClosed closed = server.closed.get(30, TimeUnit.SECONDS);
        assertEquals(List.of(), server.sendFailures);
        assertEquals(TransportClosed.Reason.END_OF_INPUT, closed.reason());
        assertEquals(0, closed.dropped(), "the encoded answer settled request 7");
        assertEquals("{   \"jsonrpc\" : \"2.0\",    \"method\" : \"notifications/message\" }\n"
                        + "{   \"jsonrpc\" : \"2.0\",   \"id\" : 7,   \"result\" : { \"text\" : \"a\\nb\" } }\n",
                fake.client().drainText(), "line breaks between tokens became spaces; the escaped one in the string stayed");
    }

    @Test
    void anEncodedAnswerOverTheLimitIsReplacedByABoundedErrorWithItsId() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EncodingServer server = new EncodingServer(StdioTransport.builder().platform(fake).maxMessageBytes(1024).build());
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":\"b1\",\"method\":\"big\"}");
        String answer = fake.client().readLine(T);
        assertTrue(answer.startsWith("{\"jsonrpc\":\"2.0\",\"id\":\"b1\",\"error\":{\"code\":-32603"), answer);
        fake.client().closeInput();
        assertEquals(0, server.closed.get(30, TimeUnit.SECONDS).dropped(), "the stand-in answered b1");
        // The dispatcher has left the listener before it closed the transport: its outcome is final.
        assertEquals(1, server.sendFailures.size(), server.sendFailures::toString);
        assertInstanceOf(MessageTooLargeException.class, server.sendFailures.get(0));
    }

    @Test
    void aClosedTransportRefusesEncodedText() {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).build();
        t.close();
        assertThrows(IOException.class, () -> t.sendEncoded("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"));
    }
}
