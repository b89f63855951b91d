package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Nothing reaches the client before the host watch has read the ancestry: a host that dies as
 * soon as it has its first answer is then still in the ancestry the watch reads, however late
 * the watching thread runs. Both ways out are held: the sender's own write on an idle wire, and
 * the writer thread's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrameWriterHostWatchTest {

    @ParameterizedTest(name = "held back: {0}, the sender interrupted: {1}")
    @CsvSource({"false,false", "true,false", "false,true"})
    void theFirstAnswerWaitsUntilTheWatchHasReadTheAncestry(boolean holdBack, boolean interrupted) throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch read = new CountDownLatch(1);
        HostWatcher watch = HostWatcher.watching(passedOver -> {
            reading.countDown();
            try {
                read.await(); // a watching thread that runs late
            } catch (InterruptedException e) {
                throw new IllegalStateException("nothing interrupts the watch before the ancestry is let through", e);
            }
            return List.of();
        }, p -> true, Optional.empty(), new HostWatcher.Session() {
            @Override
            public boolean clientSpoke() {
                return true;
            }

            @Override
            public void hostExited() {
            }
        });
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        OutboundQueue queue = new OutboundQueue(1 << 20);
        PendingRequests pending = new PendingRequests();
        pending.received(RequestId.of(1));
        FrameWriter frames = new FrameWriter(wire, false, JsonRpcCodec.standard(), 1 << 20, queue, pending, new Progress(),
                new Lifecycle(), watch);
        Thread writer = new Thread(frames, "writer");
        writer.start();
        watch.start();
        reading.await();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread sender = new Thread(() -> {
            try {
                if (interrupted) {
                    Thread.currentThread().interrupt(); // a handler cancelled while it answers
                }
                frames.send(new JsonRpcResult(RequestId.of(1), JsonNodeFactory.instance.objectNode()), holdBack);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "sender");
        sender.start();
        Thread writing = holdBack ? writer : sender;
        while (!waitsForTheAncestry(writing) && wire.size() == 0 && writing.isAlive()) {
            Thread.onSpinWait(); // until the write waits, or (wrongly) went out
        }
        assertEquals(0, wire.size(), "nothing written before the ancestry is read");
        read.countDown();
        sender.join();
        queue.close();
        writer.join();
        watch.stop();
        assertEquals(null, failed.get(), "the send failed");
        assertEquals(interrupted, stillInterrupted.get(), "the sender's interrupt is kept, not spent");
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", wire.toString(StandardCharsets.UTF_8));
    }

    /** Whether {@code t} is parked in the host watch's wait for the ancestry. */
    private static boolean waitsForTheAncestry(Thread t) {
        return t.getState() == Thread.State.TIMED_WAITING && Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getClassName().equals(HostWatcher.class.getName()) && f.getMethodName().equals("awaitAncestry"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"watching nothing", "stopped before its start", "an ancestry that failed"})
    void aWatchThatReadsNoAncestryHoldsNothingBack(String which) throws Exception {
        HostWatcher watch = switch (which) {
            case "watching nothing" -> HostWatcher.NONE;
            case "stopped before its start" -> unreadable();
            default -> failing();
        };
        if (which.equals("stopped before its start")) {
            watch.stop();
        } else {
            watch.start();
        }
        watch.awaitAncestry(); // the class's timeout fails a wait that never ends
        watch.stop();
        assertFalse(Thread.currentThread().isInterrupted());
    }

    private static HostWatcher unreadable() {
        return HostWatcher.watching(passedOver -> {
            throw new AssertionError("a stopped watch reads no ancestry");
        }, p -> true, Optional.empty(), null);
    }

    private static HostWatcher failing() {
        return HostWatcher.watching(passedOver -> {
            throw new IllegalStateException("the ancestry could not be read (scripted)");
        }, p -> true, Optional.empty(), null);
    }
}
