package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The shutdown rule, answers that do not fit, and standard streams the parent never gave. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransportShutdownTest {
    private static final Duration T = Duration.ofSeconds(30);
    private static final int MIB = 1024 * 1024;

    /** Answers {@code big} with a result of {@code params.bytes} characters, anything else with {}. */
    private static final class BigAnswers implements TransportListener {
        private final StdioTransport transport;
        private final CompletableFuture<TransportClosed> closed = new CompletableFuture<>();

        BigAnswers(StdioTransport transport) {
            this.transport = transport;
            transport.start(this);
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            if (message instanceof JsonRpcRequest r) {
                JsonNode bytes = r.params() != null ? r.params().get("bytes") : null;
                String text = "x".repeat(bytes != null ? bytes.intValue() : 0);
                try {
                    transport.send(new JsonRpcResult(r.id(), JsonNodeFactory.instance.objectNode().put("text", text)));
                } catch (IOException e) {
                    // counted by the transport; the test judges the close
                }
            }
        }

        @Override
        public void onDecodeError(DecodeError error) {
        }

        @Override
        public void onClosed(TransportClosed c) {
            closed.complete(c);
        }

        TransportClosed awaitClosed() throws Exception {
            return closed.get(30, TimeUnit.SECONDS);
        }
    }

    private static JsonRpcError error(String line) {
        assertNotNull(line, "an answer");
        return (JsonRpcError) ((DecodeResult.Decoded) JsonRpcCodec.standard().decode(line)).message();
    }

    private static String big(int id, int bytes) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"big\",\"params\":{\"bytes\":" + bytes + "}}";
    }

    @Test
    void aClientThatClosesItsEndAndStopsReadingIsAbandonedAfterTheGraceWithEveryLostAnswerCounted() throws Exception {
        FakeProcess fake = FakeProcess.builder().pipeCapacity(64 * 1024).build();
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMillis(300)).build();
        BigAnswers server = new BigAnswers(t);
        fake.client().send(big(1, 2 * MIB));
        fake.client().send(big(2, 2 * MIB));
        fake.client().closeInput(); // and never reads a byte
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason(), c::toString);
        assertEquals(2, c.dropped(), "the frame cut off in writing and the one behind it: " + c);
        assertTrue(t.claim().orElseThrow().isReleased());
    }

    @Test
    void aDispatcherStuckWritingStillSeesEndOfInputAndCountsTheRequestItNeverDispatched() throws Exception {
        FakeProcess fake = FakeProcess.builder().pipeCapacity(64 * 1024).build();
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMillis(300)).build();
        BigAnswers server = new BigAnswers(t);
        fake.client().send(big(1, 2 * MIB)); // the dispatcher writes the answer itself, and nobody reads
        awaitDispatcherBlockedInAWrite();
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        fake.client().closeInput();
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason(), c::toString);
        assertEquals(2, c.dropped(), "the answer cut off, and the request that came in behind it: " + c);
        assertTrue(t.claim().orElseThrow().isReleased());
    }

    @Test
    void oneAnswerStuckInADirectWriteHoldsTheCloseNoLongerThanTheGracePlusASecond() throws Exception {
        assertTheShutdownBound(1);
    }

    @Test
    void aHundredStuckAnswersHoldTheCloseNoLongerThanTheGracePlusASecondAndAreEachCounted() throws Exception {
        assertTheShutdownBound(100);
    }

    /**
     * {@code requests} requests for 1 MiB answers; the dispatcher writes the first itself and the
     * client never reads. From the client's close to {@code onClosed}: one grace period, not two.
     */
    private static void assertTheShutdownBound(int requests) throws Exception {
        Duration grace = Duration.ofSeconds(1);
        FakeProcess fake = FakeProcess.builder().pipeCapacity(64 * 1024).build();
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(grace).build();
        BigAnswers server = new BigAnswers(t);
        fake.client().send(big(1, MIB));
        awaitDispatcherBlockedInAWrite();
        for (int id = 2; id <= requests; id++) {
            fake.client().send(big(id, MIB));
        }
        long start = System.nanoTime();
        fake.client().closeInput();
        TransportClosed c = server.awaitClosed();
        long took = System.nanoTime() - start;
        assertEquals(requests, c.dropped(), "the answer cut off, and every request behind it: " + c);
        assertTrue(took < grace.plusSeconds(1).toNanos(), "closed " + TimeUnit.NANOSECONDS.toMillis(took)
                + " ms after the client's close, with a grace of " + grace.toMillis() + " ms");
        assertTrue(t.claim().orElseThrow().isReleased());
    }

    @Test
    void anInvalidRequestWhoseIdCannotBeRepeatedIsStillAnsweredAsAnInvalidRequest() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).maxMessageBytes(1000).build();
        BigAnswers server = new BigAnswers(t);
        fake.client().send("{\"jsonrpc\":\"1.0\",\"id\":\"" + "i".repeat(950) + "\",\"method\":\"x\"}");
        JsonRpcError answer = error(fake.client().readLine(T));
        assertEquals(null, answer.id(), answer::toString);
        assertEquals(-32600, answer.error().code(), "still an invalid request, with its id dropped: " + answer);
        assertTrue(answer.error().message().contains("too long to repeat"), answer::toString);
        fake.client().closeInput();
        assertEquals(0, server.awaitClosed().dropped());
    }

    /** Waits for a state: the transport's dispatcher parked inside a write to the fake's full pipe. */
    private static void awaitDispatcherBlockedInAWrite() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Thread.getAllStackTraces().entrySet().stream().noneMatch(e -> e.getKey().getName().equals("mcpwire-stdio-dispatcher")
                && e.getKey().getState() == Thread.State.WAITING
                && java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("write")
                        && f.getClassName().endsWith("FakeFile")))) {
            assertTrue(System.nanoTime() < deadline, "the dispatcher never blocked in a write");
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // polls the state above, which ends the wait
        }
    }

    @Test
    void aSlowClientThatKeepsReadingGetsEveryAnswerWholeThoughItTakesLongerThanTheGrace() throws Exception {
        FakeProcess fake = FakeProcess.builder().pipeCapacity(16 * 1024).build();
        Duration grace = Duration.ofMillis(400);
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(grace).build();
        BigAnswers server = new BigAnswers(t);
        fake.client().send(big(1, MIB));
        fake.client().send(big(2, MIB));
        fake.client().closeInput();
        long start = System.nanoTime();
        java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
        while (received.toString(java.nio.charset.StandardCharsets.UTF_8).lines().count() < 2
                || !received.toString(java.nio.charset.StandardCharsets.UTF_8).endsWith("\n")) {
            byte[] got = fake.client().drain();
            if (got.length == 0 && server.closed.isDone()) {
                break; // the transport gave up on this client: the assertions below say how
            }
            received.writeBytes(got);
            // Not a wait for the server: this is the slow client under test, reading at most one
            // 16 KiB pipeful per 10 ms (about 1.6 MiB/s), so 2 MiB take over three grace periods.
            Thread.sleep(10);
        }
        long took = System.nanoTime() - start;
        TransportClosed c = server.awaitClosed();
        assertEquals(0, c.dropped(), c::toString);
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason());
        List<String> lines = received.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size());
        for (String line : lines) {
            assertTrue(line.endsWith("\"}}") && line.length() > MIB, "a whole frame");
        }
        assertTrue(took > grace.toNanos() * 2, "the session outlasted the grace period, which counts only time without progress");
    }

    @Test
    void anAnswerThatCannotCarryItsIdWithinTheLimitGoesOutWithANullIdAndSaysWhy() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).maxMessageBytes(1000).gracePeriod(Duration.ofSeconds(20)).build();
        BigAnswers server = new BigAnswers(t);
        String longId = "i".repeat(5000);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":\"" + longId.substring(0, 900)
                + "\",\"method\":\"big\",\"params\":{\"bytes\":500}}");
        fake.client().send(big(2, 5000));
        fake.client().closeInput();
        JsonRpcError first = error(fake.client().readLine(T));
        assertEquals(null, first.id(), first::toString);
        assertEquals(-32603, first.error().code());
        assertTrue(first.error().message().contains("too long to repeat"), first::toString);
        JsonRpcError second = error(fake.client().readLine(T));
        assertEquals(io.mcpwire.jsonrpc.RequestId.of(2), second.id(), "a stand-in that fits keeps its id");
        assertEquals(-32603, second.error().code());
        long start = System.nanoTime();
        TransportClosed c = server.awaitClosed();
        assertEquals(0, c.dropped(), "both requests were answered, so none is owed: " + c);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15), "no wait for an answer already given");
    }

    @Test
    void aRequestOnWhichTheListenerThrowsIsAnsweredSoEndOfInputNeedNotWaitForIt() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        // A grace longer than the test's own wait: only the answer can let the transport close in time.
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMinutes(5)).build();
        CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        t.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                throw new IllegalStateException("a tool that blew up");
            }

            @Override
            public void onClosed(TransportClosed c) {
                closed.complete(c);
            }
        });
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        fake.client().closeInput();
        JsonRpcError answer = error(fake.client().readLine(T));
        assertEquals(io.mcpwire.jsonrpc.RequestId.of(9), answer.id());
        assertEquals(-32603, answer.error().code());
        assertTrue(answer.error().message().contains("a tool that blew up"), answer::toString);
        TransportClosed c = closed.get(30, TimeUnit.SECONDS);
        assertEquals(0, c.dropped(), c::toString);
    }

    @Test
    void aRequestOnWhichTheListenerThrowsAnErrorIsAnsweredAndServingGoesOn() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).build();
        CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        t.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                JsonRpcRequest r = (JsonRpcRequest) message;
                switch (r.method()) {
                    case "assert" -> throw new AssertionError("a tool's assertion");
                    case "recurse" -> throw new StackOverflowError("a tool that recursed too deep");
                    default -> {
                        try {
                            t.send(new JsonRpcResult(r.id(), JsonNodeFactory.instance.stringNode("still serving")));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }

            @Override
            public void onClosed(TransportClosed c) {
                closed.complete(c);
            }
        });
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"assert\"}");
        JsonRpcError first = error(fake.client().readLine(T));
        assertEquals(io.mcpwire.jsonrpc.RequestId.of(1), first.id());
        assertEquals(-32603, first.error().code());
        assertTrue(first.error().message().contains("a tool's assertion"), first::toString);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"recurse\"}");
        JsonRpcError second = error(fake.client().readLine(T));
        assertEquals(io.mcpwire.jsonrpc.RequestId.of(2), second.id());
        assertEquals(-32603, second.error().code());
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        String third = fake.client().readLine(T);
        assertTrue(third.contains("\"id\":3") && third.contains("still serving"), third);
        fake.client().closeInput();
        TransportClosed c = closed.get(30, TimeUnit.SECONDS);
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason(), c::toString);
        assertEquals(0, c.dropped(), c::toString);
    }

    @Test
    void withStdoutClosedAtStartTheTransportFailsAtOnceSayingWhy() throws Exception {
        FakeProcess fake = FakeProcess.builder().closedAtStart(1).build();
        StdioTransport t = StdioTransport.builder().platform(fake).build();
        BigAnswers server = new BigAnswers(t);
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.FAILED, c.reason());
        assertTrue(c.cause().getMessage().contains("fd 1 was closed when the process started"), c.cause().getMessage());
        assertTrue(t.claim().orElseThrow().isReleased());
    }

    @Test
    void withStdinClosedAtStartTheTransportSeesEndOfInputAtOnce() throws Exception {
        FakeProcess fake = FakeProcess.builder().closedAtStart(0).build();
        StdioTransport t = StdioTransport.builder().platform(fake).build();
        BigAnswers server = new BigAnswers(t);
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason());
        assertEquals(0, c.dropped());
        assertTrue(t.claim().orElseThrow().isReleased());
    }
}
