package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The dispatcher's answers to requests that came in one read are held back to be written
 * together; none of them waits for the requests after it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AnswerCoalescingTest {
    private static final Duration T = Duration.ofSeconds(30);

    private static String request(long id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"}\n";
    }

    private static String answer(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
    }

    /** Answers at once, except {@code slow}, which it answers once {@code release} opens. */
    private static final class SlowServer implements TransportListener {
        final StdioTransport transport;
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        volatile boolean released;

        SlowServer(StdioTransport transport) {
            this.transport = transport;
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            if (!(message instanceof JsonRpcRequest request)) {
                return;
            }
            try {
                if (request.method().equals("slow")) {
                    released = release.await(T.toSeconds(), TimeUnit.SECONDS);
                }
                transport.send(new JsonRpcResult(request.id(), JsonNodeFactory.instance.objectNode()));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void onClosed(TransportClosed c) {
            closed.countDown();
        }
    }

    @Test
    void anAnswerReachesTheClientWhileASlowRequestReadWithItIsStillBeingHandled() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        SlowServer server = new SlowServer(StdioTransport.builder().platform(fake).build());
        server.transport.start(server);
        // One write: while the dispatcher answers 1, request 2 already waits, so 1's answer is
        // held back to be coalesced; it must still go out while 2 is handled.
        fake.client().sendBytes((request(1, "ping") + request(2, "slow") + request(3, "ping")).getBytes(StandardCharsets.UTF_8));
        assertEquals(answer(1), fake.client().readLine(T), "the first answer, with the slow request not yet answered");
        server.release.countDown();
        assertEquals(List.of(answer(2), answer(3)), fake.client().readLines(2, T));
        assertTrue(server.released, "the slow request was answered only after the client had the first answer");
        server.transport.close();
        assertTrue(server.closed.await(T.toSeconds(), TimeUnit.SECONDS));
    }

    @Test
    void answersHeldBackAtTheEndOfInputAreAllWrittenBeforeTheClose() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        SlowServer server = new SlowServer(StdioTransport.builder().platform(fake).build());
        server.release.countDown();
        server.transport.start(server);
        StringBuilder requests = new StringBuilder();
        for (int i = 1; i <= 500; i++) {
            requests.append(request(i, i % 50 == 0 ? "slow" : "ping"));
        }
        // A notification last: no answer of the final read comes without more coming.
        requests.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        fake.client().sendBytes(requests.toString().getBytes(StandardCharsets.UTF_8));
        fake.client().closeInput();
        assertTrue(server.closed.await(T.toSeconds(), TimeUnit.SECONDS));
        List<String> lines = fake.client().readLines(500, T);
        for (int i = 0; i < 500; i++) {
            assertEquals(answer(i + 1), lines.get(i));
        }
        assertEquals("", fake.client().drainText(), "and nothing else");
    }
}
