package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Who reads the wire: the dispatcher while it keeps up, the reader thread once it is away, never both, and the bytes in order. */
class WireReaderTest {
    private static final long WAIT_SECONDS = 10;

    /** A wire fed chunk by chunk; it records which thread made each read and which one waits in a read now. */
    private static final class FedWire extends InputStream {
        private static final byte[] END = new byte[0];
        private static final byte[] FAIL = new byte[0];
        final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
        final List<Thread> readers = new ArrayList<>();
        final AtomicReference<Thread> waiting = new AtomicReference<>();

        void feed(String s) {
            chunks.add(s.getBytes(StandardCharsets.UTF_8));
        }

        void end() {
            chunks.add(END);
        }

        void fail() {
            chunks.add(FAIL);
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            synchronized (readers) {
                readers.add(Thread.currentThread());
            }
            if (!waiting.compareAndSet(null, Thread.currentThread())) {
                throw new AssertionError("two threads read the wire at once: " + waiting.get() + " and " + Thread.currentThread());
            }
            try {
                byte[] chunk = chunks.take();
                if (chunk == END) {
                    return -1;
                }
                if (chunk == FAIL) {
                    throw new IOException("the wire failed");
                }
                System.arraycopy(chunk, 0, b, off, chunk.length); // chunks are small: the callers read 64 KiB
                return chunk.length;
            } catch (InterruptedException e) {
                throw new IOException(e);
            } finally {
                waiting.set(null);
            }
        }

        Thread awaitWaitingReader() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            Thread t;
            while ((t = waiting.get()) == null || t.getState() != Thread.State.WAITING) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("nobody waits in a read of the wire");
                }
                Thread.onSpinWait();
            }
            return t;
        }

        List<Thread> readers() {
            synchronized (readers) {
                return List.copyOf(readers);
            }
        }
    }

    private final FedWire wire = new FedWire();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    private final ReadHandoff handoff = new ReadHandoff(1 << 20);
    private final WireReader reader = new WireReader(wire, handoff, new WireReader.Events() {
        @Override
        public void wireEnded() {
            ended.countDown();
        }

        @Override
        public void readFailed(IOException e) {
            failure.set(e);
        }
    });

    private static String read(InputStream in) throws IOException {
        byte[] b = new byte[64 * 1024];
        int n = in.read(b, 0, b.length);
        return n < 0 ? null : new String(b, 0, n, StandardCharsets.UTF_8);
    }

    @Test
    void aDispatcherThatKeepsUpReadsTheWireItselfAndTheEndOfInputRuleRunsOnTheReaderThread() throws Exception {
        reader.start();
        InputStream in = handoff.dispatcherInput(wire);
        for (int i = 0; i < 20; i++) {
            String line = "{\"id\":" + i + "}\n";
            AtomicReference<Thread> asked = new AtomicReference<>();
            Thread client = new Thread(() -> {
                try {
                    asked.set(wire.awaitWaitingReader()); // who asks the wire before any byte came
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                wire.feed(line);
            });
            client.start();
            assertEquals(line, read(in));
            client.join();
            assertSame(Thread.currentThread(), asked.get(), "the dispatcher waited in the wire's read itself");
        }
        wire.end();
        assertEquals(null, read(in));
        assertTrue(ended.await(WAIT_SECONDS, TimeUnit.SECONDS), "the end-of-input rule ran, on the reader thread");
        assertFalse(wire.readers().contains(reader.thread()), "the reader thread never read: " + wire.readers());
    }

    @Test
    void aDispatcherAwayWithItsBytesLeavesTheWireToTheReaderThreadWhichSeesTheEndMeanwhile() throws Exception {
        reader.start();
        InputStream in = handoff.dispatcherInput(wire);
        wire.feed("first\n");
        assertEquals("first\n", read(in)); // and the dispatcher is away with it: a listener that takes its time
        wire.feed("second\n");
        wire.feed("third\n");
        wire.end();
        assertTrue(ended.await(WAIT_SECONDS, TimeUnit.SECONDS), "end of input seen while the dispatcher is away");
        assertTrue(wire.readers().contains(reader.thread()), "the reader thread took the wire");
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        for (String s; (s = read(in)) != null; ) {
            rest.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("second\nthird\n", rest.toString(StandardCharsets.UTF_8), "what it read is handed over, in order");
    }

    @Test
    void aQuietWireRestsTheReaderThreadAndADispatcherAwayAfterTheQuietStillHasTheEndSeen() throws Exception {
        reader.start();
        InputStream in = handoff.dispatcherInput(wire);
        BlockingQueue<String> dispatched = new LinkedBlockingQueue<>();
        CountDownLatch back = new CountDownLatch(1);
        Thread dispatcher = new Thread(() -> {
            try {
                dispatched.add(read(in));
                back.await(); // away with its bytes: a listener that takes its time
                for (String s; (s = read(in)) != null; ) {
                    dispatched.add(s);
                }
                dispatched.add("<end>");
            } catch (IOException | InterruptedException e) {
                dispatched.add(e.toString());
            }
        });
        dispatcher.start();
        assertSame(dispatcher, wire.awaitWaitingReader());
        awaitState(reader.thread(), Thread.State.WAITING); // it checked every 20 ms (timed) until the quiet second passed
        wire.feed("first\n");
        assertEquals("first\n", dispatched.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        wire.feed("second\n");
        wire.end();
        assertTrue(ended.await(WAIT_SECONDS, TimeUnit.SECONDS), "end of input seen while the dispatcher is away");
        back.countDown();
        assertEquals("second\n", dispatched.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("<end>", dispatched.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    private static void awaitState(Thread t, Thread.State state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (t.getState() != state) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(t.getName() + " is " + t.getState() + ", not " + state);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void theBytesKeepTheirOrderWhicheverThreadReadsThem() throws Exception {
        reader.start();
        InputStream in = handoff.dispatcherInput(wire);
        StringBuilder sent = new StringBuilder();
        Thread feeder = new Thread(() -> {
            for (int i = 0; i < 400; i++) {
                String chunk = i + ",";
                sent.append(chunk);
                wire.feed(chunk);
                if (i % 50 == 0) {
                    Thread.yield();
                }
            }
            wire.end();
        });
        feeder.start();
        StringBuilder received = new StringBuilder();
        int reads = 0;
        for (String s; (s = read(in)) != null; reads++) {
            received.append(s);
            if (reads % 40 == 0) {
                TimeUnit.MILLISECONDS.sleep(50); // a slow listener now and then: the reader thread takes over
            }
        }
        feeder.join();
        assertEquals(sent.toString(), received.toString());
        assertTrue(ended.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(wire.readers().contains(reader.thread()) && wire.readers().contains(Thread.currentThread()),
                "both threads read the wire, one at a time");
    }

    @Test
    void anInputEndedWhileTheDispatcherWaitsOnTheWireCountsAsAllDispatchedAndWhatComesAfterDoesNot() throws Exception {
        reader.start();
        AtomicReference<String> got = new AtomicReference<>("not yet");
        Thread dispatcher = new Thread(() -> {
            try {
                got.set(read(handoff.dispatcherInput(wire)));
            } catch (IOException e) {
                got.set(e.toString());
            }
        });
        dispatcher.start();
        assertSame(dispatcher, wire.awaitWaitingReader());
        assertFalse(handoff.endedWhileDispatcherReads());
        handoff.end(); // the host died with stdin still open
        assertTrue(handoff.endedWhileDispatcherReads());
        wire.feed("late\n");
        dispatcher.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertEquals(null, got.get(), "the bytes after the end are not taken");
        assertEquals(1, ended.getCount(), "no end of the wire was read: the end-of-input rule is the host watch's");
    }

    @Test
    void aFailedReadOnTheDispatcherFailsItsStreamAndNobodyReadsTheWireAgain() throws Exception {
        reader.start();
        InputStream in = handoff.dispatcherInput(wire);
        wire.fail();
        IOException e = assertThrows(IOException.class, () -> read(in));
        assertEquals("the wire failed", e.getMessage());
        wire.feed("after\n");
        AtomicReference<Throwable> again = new AtomicReference<>();
        Thread dispatcher = new Thread(() -> {
            try {
                again.set(new AssertionError("read " + read(in)));
            } catch (IOException | RuntimeException t) {
                again.set(t);
            }
        });
        dispatcher.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (dispatcher.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1, wire.chunks.size(), "the dispatcher waits, and not on the wire: the bytes after the failure are still there");
        handoff.close();
        dispatcher.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertTrue(again.get() instanceof java.nio.channels.AsynchronousCloseException, String.valueOf(again.get()));
        assertFalse(wire.readers().contains(reader.thread()));
    }
}
