package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.jsonrpc.MessageTooLargeException;
import io.mcpwire.jsonrpc.TransportClosed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.JsonNodeFactory;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StdioTransportTest {
    private static final Duration T = Duration.ofSeconds(30);
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();

    private static String ping(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    private static String pong(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
    }

    /** Requests 1 to n, each a ping on its own line. */
    private static byte[] pings(int n) {
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            all.append(ping(i)).append('\n');
        }
        return all.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static StdioTransport.Builder over(FakeProcess fake) {
        return StdioTransport.builder().platform(fake);
    }

    @Test
    void framesLinesEndedByLfOrCrLfSkipsBlankLinesAndABomAndWritesLfOnly() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EchoServer server = new EchoServer(over(fake).build()).start();
        fake.client().sendBytes(("\uFEFF" + ping(1) + "\r\n\n   \r\n" + ping(2) + "\n\t\n" + ping(3)).getBytes(StandardCharsets.UTF_8));
        fake.client().closeInput();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, server.awaitClosed().reason());
        assertEquals(pong(1) + "\n" + pong(2) + "\n" + pong(3) + "\n", fake.client().drainText(),
                "the partial last line was a whole message; output is LF only");
        assertTrue(server.decodeErrors.isEmpty(), server.decodeErrors::toString);
    }

    @Test
    void tenThousandPipelinedRequestsAreAnsweredInOrderWithNoneLost() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EchoServer server = new EchoServer(over(fake).build()).start();
        fake.client().sendBytes(pings(10_000));
        List<String> lines = fake.client().readLines(10_000, T);
        assertEquals(IntStream.rangeClosed(1, 10_000).mapToObj(StdioTransportTest::pong).collect(Collectors.toList()), lines);
        server.transport.close();
    }

    @Test
    void fiftyThousandCallsInFlightNeitherCrashNorStall() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EchoServer server = new EchoServer(over(fake).build()).start();
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= 50_000; i++) {
            all.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i)
                    .append(",\"method\":\"echo\",\"params\":{\"text\":\"").append("e".repeat(100)).append("\"}}\n");
        }
        fake.client().sendBytes(all.toString().getBytes(StandardCharsets.UTF_8));
        fake.client().closeInput();
        List<String> lines = fake.client().readLines(50_000, T);
        assertEquals(50_000, lines.size(), "every call answered");
        for (int i = 0; i < lines.size(); i++) {
            assertTrue(lines.get(i).startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 1) + ",\"result\""), lines.get(i));
        }
        assertEquals(TransportClosed.Reason.END_OF_INPUT, server.awaitClosed().reason());
        assertEquals("", fake.client().drainText(), "and nothing else");
    }

    @Test
    void aThousandPipelinedRequestsFollowedAtOnceByEndOfInputAreAllAnsweredBeforeTheRestore() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        StdioTransport t = over(fake).build();
        // Answers come from other threads, only after the client has closed its end: the
        // transport must wait for them.
        ExecutorService workers = Executors.newFixedThreadPool(4);
        CountDownLatch inputClosed = new CountDownLatch(1);
        List<TransportClosed> closed = new ArrayList<>();
        boolean[] restoredWhenTold = {false};
        CountDownLatch done = new CountDownLatch(1);
        t.start(new io.mcpwire.jsonrpc.TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage m) {
                JsonRpcRequest r = (JsonRpcRequest) m;
                workers.submit(() -> {
                    try {
                        inputClosed.await();
                        synchronized (workers) { // answers in any order; each one whole
                            t.send(new JsonRpcResult(r.id(), JsonNodeFactory.instance.objectNode()));
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return null;
                });
            }

            @Override
            public void onClosed(TransportClosed c) {
                closed.add(c);
                restoredWhenTold[0] = fake.isOnWire(0) && fake.isOnWire(1); // judged on the test's thread
                done.countDown();
            }
        });
        fake.client().sendBytes(pings(1000));
        fake.client().closeInput();
        inputClosed.countDown();
        assertTrue(done.await(60, TimeUnit.SECONDS));
        workers.shutdownNow();
        assertTrue(restoredWhenTold[0], "the listener hears of the close after the restore");
        assertEquals(TransportClosed.Reason.END_OF_INPUT, closed.get(0).reason());
        assertEquals(0, closed.get(0).dropped());
        Set<String> answers = new HashSet<>(List.of(fake.client().drainText().split("\n")));
        assertEquals(IntStream.rangeClosed(1, 1000).mapToObj(StdioTransportTest::pong).collect(Collectors.toSet()), answers);
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    @Test
    void sixteenThreadsSendingAtOnceProduceOnlyWholeLines() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        EchoServer server = new EchoServer(over(fake).build()).start();
        int threads = 16;
        int each = 500;
        String payload = "x".repeat(3000);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    server.transport.send(new JsonRpcNotification("n", JsonNodeFactory.instance.objectNode()
                            .put("t", thread).put("i", i).put("p", payload)));
                }
                return null;
            });
        }
        go.countDown();
        List<String> lines = fake.client().readLines(threads * each, T);
        pool.shutdown();
        assertEquals(threads * each, lines.size());
        int[] next = new int[threads];
        for (String line : lines) {
            JsonRpcNotification n = (JsonRpcNotification) ((io.mcpwire.jsonrpc.DecodeResult.Decoded) CODEC.decode(line)).message();
            int t = n.params().get("t").intValue();
            assertEquals(next[t]++, n.params().get("i").intValue(), "each thread's messages stay in its order");
            assertEquals(payload, n.params().get("p").stringValue());
        }
        server.transport.close();
    }

    @Test
    void aTwentyMebibyteLineIsSkippedInBoundedMemoryAnsweredAndServingGoesOn() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).build(); // the default limit, 16 MiB
        EchoServer server = new EchoServer(t).start();
        byte[] huge = new byte[20 * 1024 * 1024];
        java.util.Arrays.fill(huge, (byte) 'a');
        fake.client().sendBytes(huge);
        fake.client().send("");
        fake.client().send(ping(7));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: a message of "
                + huge.length + " bytes exceeds the limit of 16777216 bytes; it was skipped\"}}", fake.client().readLine(T));
        assertEquals(pong(7), fake.client().readLine(T));
        assertEquals(1, server.decodeErrors.size());
        t.close();
    }

    @Test
    void anOversizedRequestIsAnsweredWithItsIdWhereverTheIdStands() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).maxMessageBytes(64 * 1024).build();
        EchoServer server = new EchoServer(t).start();
        String text = "b".repeat(3 * 1024 * 1024);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":\"first\",\"method\":\"tools/call\",\"params\":{\"id\":1,\"t\":\"" + text + "\"}}");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"t\":\"" + text + "\"},\"id\":41}");
        fake.client().send(ping(42));
        String first = fake.client().readLine(T);
        assertTrue(first.startsWith("{\"jsonrpc\":\"2.0\",\"id\":\"first\",\"error\":{\"code\":-32600,"), first);
        String second = fake.client().readLine(T);
        assertTrue(second.startsWith("{\"jsonrpc\":\"2.0\",\"id\":41,\"error\":{\"code\":-32600,"), second);
        assertEquals(pong(42), fake.client().readLine(T));
        assertEquals(2, server.decodeErrors.size());
        t.close();
    }

    @Test
    void withASmallLimitTheBufferStaysSmallToo() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).maxMessageBytes(1024).build();
        new EchoServer(t).start();
        fake.client().sendBytes(new byte[5_000_000]);
        fake.client().send("\n" + ping(1));
        assertTrue(fake.client().readLine(T).contains("-32600"));
        assertEquals(pong(1), fake.client().readLine(T));
        t.close();
    }

    @Test
    void everyClassOfBadInputIsAnsweredAndFollowedByAWorkingPing() throws Exception {
        FakeProcess fake = FakeProcess.builder().build();
        StdioTransport t = over(fake).maxMessageBytes(4096).build();
        EchoServer server = new EchoServer(t).start();
        byte[] badUtf8 = {'{', '"', (byte) 0xC3, '"', '}'};
        List<byte[]> bad = List.of(
                badUtf8,
                "not json".getBytes(StandardCharsets.UTF_8),
                "{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8),
                "[{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}]".getBytes(StandardCharsets.UTF_8),
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8),
                ("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"x\",\"params\":\"" + "y".repeat(5000) + "\"}").getBytes(StandardCharsets.UTF_8),
                "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"nope\"}".getBytes(StandardCharsets.UTF_8));
        String[] expected = {
            "\"id\":null,\"error\":{\"code\":-32700",
            "\"id\":null,\"error\":{\"code\":-32700",
            "\"id\":5,\"error\":{\"code\":-32600",
            "\"id\":null,\"error\":{\"code\":-32600",
            "\"id\":null,\"error\":{\"code\":-32600",
            "\"id\":8,\"error\":{\"code\":-32600", // over the limit, answered with the id read as it streamed past
            "\"id\":9,\"error\":{\"code\":-32601"};
        for (int i = 0; i < bad.size(); i++) {
            fake.client().sendBytes(bad.get(i));
            fake.client().send("");
            String answer = fake.client().readLine(T);
            assertTrue(answer.contains(expected[i]), "line " + i + " answered " + answer);
            fake.client().send(ping(100 + i));
            assertEquals(pong(100 + i), fake.client().readLine(T), "serving goes on after bad line " + i);
        }
        assertEquals(6, server.decodeErrors.size());
        t.close();
        assertEquals(TransportClosed.Reason.CLOSED, server.awaitClosed().reason());
    }

    @Test
    void closeReturnsPromptlyWithABlockedReaderReleasesTheClaimAndLeavesNoThread() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        java.util.Set<Thread> earlier = Thread.getAllStackTraces().keySet(); // other tests' transports are theirs
        StdioTransport t = over(fake).build();
        EchoServer server = new EchoServer(t).start();
        fake.client().send(ping(1));
        assertEquals(pong(1), fake.client().readLine(T));
        assertTimeoutPreemptively(Duration.ofSeconds(10), t::close);
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.CLOSED, c.reason());
        assertEquals(1, server.closed.size(), "told exactly once");
        assertTrue(t.claim().orElseThrow().isReleased());
        assertEquals(before, fake.snapshot());
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("mcpwire-transport") && th.isAlive() && !earlier.contains(th))
                .map(Thread::getName).toList();
        assertEquals(List.of(), left, "no thread of this transport left");
        t.close(); // idempotent
        assertThrows(IOException.class, () -> t.send(new JsonRpcNotification("late", null)));
    }

    @Test
    void streamsPassedInExplicitlyClaimNothing() throws Exception {
        FakeProcess shared = FakeProcess.withPipes();
        FakeProcess.setShared(shared);
        System.setProperty("mcpwire.platform", "fake");
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            StdioTransport t = StdioTransport.builder()
                    .streams(new ByteArrayInputStream((ping(1) + "\n").getBytes(StandardCharsets.UTF_8)), out).build();
            assertTrue(t.claim().isEmpty(), "explicit streams claim nothing");
            EchoServer server = new EchoServer(t).start();
            assertEquals(TransportClosed.Reason.END_OF_INPUT, server.awaitClosed().reason());
            assertEquals(pong(1) + "\n", out.toString(StandardCharsets.UTF_8));
            assertEquals(0, shared.callCount(), "no descriptor was touched");
            StdioClaim.acquire().close(); // and nothing was registered
        } finally {
            System.clearProperty("mcpwire.platform");
            FakeProcess.setShared(null);
        }
    }

    @Test
    void anOversizedOutgoingMessageFailsItsSendAndTheTransportGoesOn() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).maxMessageBytes(1000).build();
        new EchoServer(t).start();
        MessageTooLargeException e = assertThrows(MessageTooLargeException.class, () -> t.send(
                new JsonRpcNotification("big", JsonNodeFactory.instance.objectNode().put("p", "z".repeat(2000)))));
        assertEquals(1000, e.limit());
        assertTrue(e.getMessage().contains("exceeds the limit of 1000 bytes"));
        fake.client().send(ping(2));
        assertEquals(pong(2), fake.client().readLine(T));
        t.close();
    }

    @Test
    void aFullQueueBlocksSendersUntilTheClientReads() throws Exception {
        FakeProcess fake = FakeProcess.builder().pipeCapacity(4096).build();
        StdioTransport t = over(fake).outboundQueueBytes(8192).build();
        new EchoServer(t).start();
        CompletableFuture<Throwable> sent = new CompletableFuture<>();
        Thread sender = BlockedThreads.start(() -> {
            for (int i = 0; i < 200; i++) {
                t.send(new JsonRpcNotification("n", JsonNodeFactory.instance.objectNode().put("i", i).put("p", "q".repeat(1000))));
            }
        }, sent);
        // The state under test, not a time: the sender parks on the full queue.
        while (sender.getState() != Thread.State.WAITING) {
            assertFalse(sent.isDone(), "the sender finished although nobody read");
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // a poll of the state, not a wait for time
        }
        List<String> lines = fake.client().readLines(200, T);
        assertEquals(null, sent.get(30, TimeUnit.SECONDS), "every send went through once the client read");
        assertEquals(200, lines.size());
        t.close();
    }

    @Test
    void aClientThatGoesAwayEndsTheTransportCleanly() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        StdioTransport t = over(fake).build();
        EchoServer server = new EchoServer(t).start();
        fake.client().disconnect();
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason(), c::toString); // nothing was owed, nothing written
        assertTrue(t.claim().orElseThrow().isReleased());
        assertEquals(before, fake.snapshot());
    }

    @Test
    void aBrokenPipeOnWriteEndsTheTransportWithTheCauseAndCountsTheDroppedAnswer() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.WRITE).always().errno(32, "EPIPE (Broken pipe, scripted)");
        StdioTransport t = over(fake).build();
        EchoServer server = new EchoServer(t).start();
        fake.client().send(ping(1));
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.FAILED, c.reason());
        assertTrue(c.cause().getMessage().contains("EPIPE"), c.cause().getMessage());
        assertEquals(1, c.dropped());
        assertTrue(t.claim().orElseThrow().isReleased());
        assertEquals(before, fake.snapshot());
    }

    @Test
    void anUnansweredRequestAtEndOfInputIsDroppedAfterTheGracePeriodAndTheCloseSaysSo() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).gracePeriod(Duration.ofMillis(200)).build();
        EchoServer server = new EchoServer(t).start();
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"silent\"}");
        fake.client().send(ping(2));
        fake.client().closeInput();
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason());
        assertEquals(1, c.dropped());
        assertEquals(pong(2), fake.client().readLine(T));
    }

    @Test
    void aCancelledRequestIsNotWaitedFor() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = over(fake).gracePeriod(Duration.ofSeconds(60)).build();
        EchoServer server = new EchoServer(t).start();
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"silent\"}");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"a\"}}");
        fake.client().closeInput();
        assertEquals(0, assertTimeoutPreemptively(Duration.ofSeconds(30), server::awaitClosed).dropped());
    }

    @Test
    void aFailingReadEndsTheTransportWithACauseAndReleasesTheClaim() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.READ);
        StdioTransport t = over(fake).build();
        EchoServer server = new EchoServer(t).start();
        TransportClosed c = server.awaitClosed();
        assertEquals(TransportClosed.Reason.FAILED, c.reason());
        assertInstanceOf(IOException.class, c.cause());
        assertTrue(c.cause().getMessage().contains("read"), c.cause().getMessage());
        assertEquals(before, fake.snapshot());
    }

    @Test
    void anEarlyClaimIsHandedToATransportLater() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioClaim claim = StdioClaim.builder().platform(fake).acquire(); // first thing in main
        StdioTransport t = StdioTransport.builder().claim(claim).build();
        new EchoServer(t).start();
        fake.client().send(ping(3));
        assertEquals(pong(3), fake.client().readLine(T));
        t.close();
        assertSame(claim, t.claim().orElseThrow(), "the transport serves the early claim, not one of its own");
        assertTrue(claim.isReleased());
    }
}
