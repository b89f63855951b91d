package io.mcpwire.stdio.engine;

import io.mcpwire.stdio.buffer.ByteRing;
import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.PlatformDescriptors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Stray output on its way to stderr, so that a host that never reads stderr never blocks a
 * writer: what the claim diverts writes into a pipe of the claim's own; one thread reads the pipe
 * into a bounded buffer and never waits for stderr, another writes the buffer to stderr and may wait
 * there for ever. A writer of stray output so waits at most for the reader's next copy.
 *
 * <p>When the buffer is full, the newest bytes are dropped and counted, so that what is kept is
 * the start of the burst, whole and in order. Once the backlog is written out (stderr drains
 * again) the writer puts the count into stderr itself, where the gap is; at the end of a session
 * whose fd 2 is guarded the releasing thread logs the session's total, before fd 1 is the wire
 * again.
 *
 * <p>The drain ends when the pipe has no write end left (the release put the descriptors back) and
 * its buffer is written. {@link #finish} waits for that a bounded time: another process may still
 * hold the write end (an {@code inheritIO()} child), or stderr may still be unread. The drain's
 * threads are daemons and close its descriptors when both have ended, whenever that is.
 */
final class StrayDrain {
    /** The most the buffer holds: a burst of stray output as large as this is never dropped. */
    static final int BUFFER_LIMIT = 1 << 20;
    private static final int FIRST_BUFFER = 16 * 1024;
    private static final int CHUNK = 64 * 1024;
    /** What the log says at the release, after the session's count. */
    private static final String DROPPED_IN_SESSION = " bytes of stray output dropped: stderr was not being read (in this session)";
    /** What the drain writes into stderr where the gap is, after the count. */
    private static final String DROPPED_SO_FAR = " bytes of stray output dropped: stderr was not being read (so far)\n";

    private final PlatformDescriptors platform;
    private final PipeEnds pipe;
    private final int stderr;
    private final DescriptorStream source;
    private final DescriptorStream sink;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // Guarded by lock.
    private final ByteRing buffer = new ByteRing(FIRST_BUFFER, BUFFER_LIMIT);
    private long droppedSinceReport;
    private long droppedInAll;
    private boolean sourceEnded;
    private boolean sinkFailed;
    /** Whether the writer holds bytes it took from the buffer and has not yet written. */
    private boolean writing;
    private int threadsLeft = 2;
    private boolean writeEndHeld = true;
    private final Thread reader;
    private final Thread writer;
    /** Counted down by each thread once its stream is prepared (see {@link #start}). */
    private final java.util.concurrent.CountDownLatch prepared = new java.util.concurrent.CountDownLatch(2);
    /** How long {@link #start} waits for the threads to prepare. */
    private static final long PREPARE_MILLIS = 1_000;

    private StrayDrain(PlatformDescriptors platform, PipeEnds pipe, int stderr, DescriptorStream source, DescriptorStream sink) {
        this.platform = platform;
        this.pipe = pipe;
        this.stderr = stderr;
        this.source = source;
        this.sink = sink;
        reader = new Thread(new Side(Side.Job.READ_PIPE), "mcpwire-stray-drain-read");
        writer = new Thread(new Side(Side.Job.WRITE_STDERR), "mcpwire-stray-drain-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
    }

    /** One of the drain's two threads: a class, not a lambda, which would cost a generated class on the first claim. */
    private final class Side implements Runnable {
        /** Which thread. */
        enum Job { READ_PIPE, WRITE_STDERR }

        private final Job job;

        Side(Job job) {
            this.job = job;
        }

        @Override
        public void run() {
            if (job == Job.READ_PIPE) {
                prepare(source);
                readPipe();
            } else {
                prepare(sink);
                writeStderr();
            }
        }
    }

    /** Each thread makes what its stream needs before the claim moves anything (its thread's handle, on Windows). */
    private void prepare(DescriptorStream stream) {
        try {
            stream.prepare();
        } catch (RuntimeException e) {
            // it will be made on the first call instead; the drain's threads never log
        } finally {
            prepared.countDown();
        }
    }

    /**
     * A running drain to a duplicate of fd 2, or empty when the provider cannot make one (no
     * {@code pipe()}, or a failure, logged); stray output then goes to stderr directly. Nothing is
     * left open when empty. It returns once both threads have prepared their streams (a bounded
     * wait): on Windows each opens a handle on itself, which takes a value of the process's handle
     * table, and must not take one that a move of fd 0 to 2 has just freed.
     */
    static Optional<StrayDrain> start(PlatformDescriptors platform) {
        int stderr = -1;
        PipeEnds pipe = null;
        DescriptorStream source = null;
        try {
            pipe = platform.pipe(); // first: a provider without pipes is asked nothing else
            stderr = platform.duplicate(PlatformDescriptors.STDERR);
            if (stderr <= PlatformDescriptors.STDERR) {
                throw new DescriptorException("duplicate(2)", PlatformDescriptors.STDERR, 0,
                        "the duplicate landed on fd " + stderr + ", a standard descriptor");
            }
            source = platform.open(pipe.readEnd());
            DescriptorStream sink = platform.open(stderr);
            StrayDrain drain = new StrayDrain(platform, pipe, stderr, source, sink);
            drain.reader.start();
            drain.writer.start();
            drain.awaitPrepared();
            return Optional.of(drain);
        } catch (DescriptorException | RuntimeException e) {
            LOG.log(Level.DEBUG, "stray output goes to stderr directly, without a drain ({0})", e.getMessage());
            if (source != null) {
                source.close();
            }
            if (pipe != null) {
                closeQuietly(platform, pipe.readEnd());
                closeQuietly(platform, pipe.writeEnd());
            }
            if (stderr > PlatformDescriptors.STDERR) {
                closeQuietly(platform, stderr);
            }
            return Optional.empty();
        }
    }

    private void awaitPrepared() {
        try {
            if (!prepared.await(PREPARE_MILLIS, TimeUnit.MILLISECONDS)) {
                LOG.log(Level.DEBUG, "stray output: the drain''s threads did not prepare within {0} ms; going on", PREPARE_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A new descriptor on the pipe's write end, for a diversion to take. */
    int openWriteEnd() throws DescriptorException {
        return platform.duplicate(pipe.writeEnd());
    }

    /**
     * Closes the drain's own write end once every diversion has its copy, so that the drain sees
     * end of input once the release has put the descriptors back. Idempotent.
     */
    void sealWriteEnd() {
        lock.lock();
        try {
            if (!writeEndHeld) {
                return;
            }
            writeEndHeld = false;
        } finally {
            lock.unlock();
        }
        closeQuietly(platform, pipe.writeEnd());
    }

    /**
     * After the release: waits up to {@code waitMillis} for the drain to read the pipe to its end
     * and write its buffer out. A drain whose pipe is still held elsewhere is left running; one
     * still waiting on stderr is woken, and what it held is counted as dropped. Never blocks longer.
     */
    void finish(long waitMillis) {
        sealWriteEnd();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        if (!join(reader, deadline)) {
            LOG.log(Level.DEBUG, "stray output: another process still holds the drain''s pipe (an inheritIO() "
                    + "child?); the drain goes on carrying its output to stderr until it lets go");
            return;
        }
        if (!join(writer, deadline)) {
            sink.wakeUp(); // stderr is not being read: what is left is dropped and counted
            join(writer, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis));
        }
    }

    private static boolean join(Thread t, long deadline) {
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !t.isAlive();
    }

    /**
     * Waits up to {@code waitMillis} until stderr has taken every byte the drain holds: false when
     * it has not (stderr is not being read), true at once when the drain holds nothing.
     */
    boolean awaitWritten(long waitMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        boolean interrupted = false;
        lock.lock();
        try {
            while ((buffer.size() > 0 || writing) && !sinkFailed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true; // the wait is bounded: finish it, and say so after
                }
            }
            return true;
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Logs what the session dropped, on the calling thread: the releasing thread calls it while fd 1
     * (and fd 2, guarded) still write into the drain, so that the line can neither block nor land on
     * the wire once fd 1 is the wire again (a logger that writes stdout). The drain's own threads
     * never log.
     */
    void reportUnreported() {
        long dropped;
        lock.lock();
        try {
            dropped = droppedInAll;
        } finally {
            lock.unlock();
        }
        if (dropped > 0) {
            LOG.log(Level.WARNING, Long.toString(dropped) + DROPPED_IN_SESSION);
        }
    }

    private void readPipe() {
        byte[] chunk = new byte[CHUNK];
        try {
            for (int n; (n = source.read(chunk, 0, chunk.length)) >= 0; ) {
                keep(chunk, n);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "stray output: reading the drain''s pipe ended ({0})", e.getMessage());
        } finally {
            lock.lock();
            try {
                sourceEnded = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            ended();
        }
    }

    /** Into the buffer, grown as needed up to its limit; what does not fit is dropped and counted. */
    private void keep(byte[] chunk, int n) {
        lock.lock();
        try {
            int kept = 0;
            while (!sinkFailed && kept < n) {
                int put = buffer.put(chunk, kept, n - kept);
                if (put == 0) {
                    break; // full: the newest bytes are dropped
                }
                kept += put;
            }
            droppedSinceReport += n - kept;
            droppedInAll += n - kept;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void writeStderr() {
        byte[] out = new byte[CHUNK];
        try {
            while (true) {
                int n = take(out);
                if (n < 0) {
                    return;
                }
                try {
                    sink.write(out, 0, n);
                    markGapIfDrained();
                } catch (IOException e) {
                    failed(n, e);
                    return;
                }
                written();
            }
        } finally {
            ended();
        }
    }

    /** The next bytes for stderr, taken out of the buffer; -1 once the pipe has ended and all is written. */
    private int take(byte[] out) {
        lock.lock();
        try {
            while (buffer.size() == 0 && !sourceEnded) {
                changed.awaitUninterruptibly();
            }
            if (buffer.size() == 0) {
                return -1;
            }
            writing = true;
            return buffer.take(out, 0, out.length);
        } finally {
            lock.unlock();
        }
    }

    private void written() {
        lock.lock();
        try {
            writing = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** stderr failed or was given up on: what is in hand and in the buffer is dropped, and so is all that follows. */
    private void failed(int inHand, IOException e) {
        lock.lock();
        try {
            sinkFailed = true;
            writing = false;
            int lost = inHand + buffer.clear();
            droppedSinceReport += lost;
            droppedInAll += lost;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        LOG.log(Level.DEBUG, "stray output: writing stderr ended ({0}); what follows is dropped", e.getMessage());
    }

    /**
     * Once the backlog is written out after a drop (stderr drains again), writes the count into
     * stderr itself, where the gap is: a line that cannot land anywhere else, whatever the
     * application's logging does with stdout by then.
     */
    private void markGapIfDrained() throws IOException {
        long dropped;
        lock.lock();
        try {
            if (buffer.size() > 0 || droppedSinceReport == 0) {
                return;
            }
            dropped = droppedSinceReport;
            droppedSinceReport = 0;
        } finally {
            lock.unlock();
        }
        byte[] line = ("mcpwire: " + dropped + DROPPED_SO_FAR).getBytes(StandardCharsets.US_ASCII);
        sink.write(line, 0, line.length);
    }

    /** The last thread to end frees the drain's streams and descriptors: no call is in flight on them then. */
    private void ended() {
        lock.lock();
        try {
            if (--threadsLeft > 0) {
                return;
            }
        } finally {
            lock.unlock();
        }
        source.close();
        sink.close();
        sealWriteEnd();
        closeQuietly(platform, pipe.readEnd());
        closeQuietly(platform, stderr);
    }

    private static void closeQuietly(PlatformDescriptors platform, int fd) {
        try {
            platform.close(fd);
        } catch (DescriptorException | RuntimeException e) {
            LOG.log(Level.DEBUG, "stray output: closing the drain''s fd {0} failed ({1})", fd, e.getMessage());
        }
    }
}
