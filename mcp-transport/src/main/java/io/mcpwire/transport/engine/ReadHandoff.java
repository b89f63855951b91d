package io.mcpwire.transport.engine;

import io.mcpwire.stdio.buffer.ByteRing;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who reads the wire, and the bytes handed from the reader thread to the dispatcher: an in-memory
 * hand-off between two threads of this process (not an OS pipe). One thread at a time owns the
 * wire's read, so the bytes keep their order:
 *
 * <ul>
 * <li>While the dispatcher keeps up, it reads the wire itself, straight into its line buffer. A
 *     request then goes from the wire to the listener on one thread, with no hand-off and no
 *     wake-up on its way.</li>
 * <li>Once the dispatcher has been busy with the same bytes for a whole check interval of the
 *     reader thread ({@link #CHECK_NANOS}, seen twice), the reader thread takes the wire and reads into a ring
 *     that grows, only while the dispatcher falls behind, up to its capacity. So end of input is
 *     seen within two check intervals whatever the dispatcher is blocked in: a listener that takes its time,
 *     a send to a client that does not read, a direct write of a large answer.</li>
 * <li>The dispatcher reads the ring first, and the wire again only once the ring is empty and
 *     the reader thread has let go of the wire.</li>
 * <li>Once the dispatcher has taken nothing for {@link #QUIET_NANOS} and waits for the wire, the
 *     reader thread stops checking until the dispatcher takes bytes again, so that an idle server does not
 *     wake fifty times a second for nothing.</li>
 * </ul>
 *
 * <p>The hand-off allocates nothing more however long the input, so a line streamed past the size
 * limit costs no memory beyond the ring and the framer's buffer. {@link #dispatcherInput} is the
 * dispatcher's view: a stream that ends where the wire ended, and fails once the hand-off is closed.
 *
 * <p>Threads: the reader thread and the dispatcher; {@link #lock} guards the ring, the wire's owner and
 * the flags, and is never held across a read of the wire.
 */
public final class ReadHandoff {
    /** How often the reader thread checks whether the dispatcher is stuck; also the longest a stuck dispatcher goes unseen, twice. */
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** How long the dispatcher takes nothing, waiting for the wire, before the reader thread rests. */
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Small: the ring holds bytes only while the dispatcher is stuck, and doubles as it fills. */
    private static final int INITIAL = 4 * 1024;

    /** Who owns the wire's read now: nobody, or one of the two threads, never both. */
    private enum WireOwner { NOBODY, READER, DISPATCHER }

    /** Whether the input goes on, was ended early ({@link #end()}), or the wire itself ended. */
    private enum End { OPEN, EARLY, WIRE }

    /** How the reader thread's wait for the wire ended. */
    public enum ReaderMove {
        /** The reader thread owns the wire: it reads it once, then {@link #put} or {@link #wireEnded}. */
        READ,
        /** The dispatcher read the end of the wire: the reader thread runs the end-of-input rule. */
        WIRE_ENDED,
        /** The input was ended early or the hand-off closed: nothing more to do. */
        STOPPED
    }

    private final ByteRing ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile int bytes; // the ring's size, written under the lock, read without it by hasMore()
    private WireOwner owner = WireOwner.NOBODY;
    /** Whether the dispatcher is away with bytes it took; with {@link #taken}, what the reader thread watches. */
    private boolean dispatching;
    /** Counts the dispatcher's takes, so that the reader thread tells one long dispatch from many short ones. */
    private long taken;
    /** Whether the reader thread waits, without checking, for the dispatcher to take bytes again. */
    private boolean readerResting;
    /** How the input ended, if it has. */
    private End end = End.OPEN;
    private boolean closed;

    /** A hand-off that holds at most {@code capacityBytes}. */
    public ReadHandoff(int capacityBytes) {
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("capacityBytes < 1");
        }
        this.ring = new ByteRing(Math.min(INITIAL, capacityBytes), capacityBytes);
    }

    // ------------------------------------------------------------------ the reader thread

    /**
     * Waits until the reader thread may read the wire: nobody owns it and the dispatcher has been
     * away with the same bytes since the last check. While the wire is quiet it rests instead of
     * checking; the dispatcher's next take wakes it.
     */
    public ReaderMove awaitReaderMove() {
        lock.lock();
        try {
            long seen = -1;
            long quietTaken = taken;
            long quietSince = System.nanoTime();
            while (true) {
                if (end == End.WIRE) {
                    return ReaderMove.WIRE_ENDED;
                }
                if (end == End.EARLY || closed) {
                    return ReaderMove.STOPPED;
                }
                boolean stuck = dispatching && taken == seen;
                if (owner == WireOwner.NOBODY && stuck) {
                    owner = WireOwner.READER;
                    return ReaderMove.READ;
                }
                seen = dispatching ? taken : -1;
                long now = System.nanoTime();
                if (taken != quietTaken) {
                    quietTaken = taken;
                    quietSince = now;
                } else if (!dispatching && now - quietSince >= QUIET_NANOS) {
                    readerResting = true; // a dispatcher waiting on the wire cannot be stuck
                    changed.await();
                    readerResting = false;
                    continue;
                }
                changed.awaitNanos(CHECK_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ReaderMove.STOPPED; // daemons are not interrupted; an interrupt means stop
        } finally {
            lock.unlock();
        }
    }

    /**
     * Copies {@code b[off, off + len)} in, waiting while the ring is full, then lets go of the
     * wire; false once the hand-off is closed or ended (the rest is not taken).
     */
    public boolean put(byte[] b, int off, int len) {
        lock.lock();
        try {
            while (len > 0) {
                while (!closed && end == End.OPEN && ring.isFull()) {
                    changed.awaitUninterruptibly();
                }
                if (closed || end != End.OPEN) {
                    return false; // closing, or the input was ended early
                }
                int n = ring.put(b, off, len);
                off += n;
                len -= n;
                bytes = ring.size();
                changed.signalAll();
            }
            owner = WireOwner.NOBODY; // only now: the dispatcher must not read the wire past bytes still on their way in
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The reader thread read the end of the wire: the dispatcher reads what is left, then end of input. */
    public void wireEnded() {
        endAs(End.WIRE);
    }

    // ------------------------------------------------------------------ either side

    /** Ends the input here, as if the wire had ended: what was already read is dispatched, nothing more is taken. */
    public void end() {
        endAs(End.EARLY);
    }

    /** The wire's own end is told even after an early one, so that the end-of-input rule runs for it too. */
    private void endAs(End how) {
        lock.lock();
        try {
            if (end == End.OPEN || how == End.WIRE) {
                end = how;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the hand-off: a waiting put returns false and no more is accepted; the dispatcher
     * still reads what is held (the transport counts it as lost), then its next read fails.
     */
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether bytes wait in the ring that the dispatcher has not taken; lock-free, for the hot path of a send. */
    public boolean hasMore() {
        return bytes > 0;
    }

    /**
     * Whether the input was ended early while the dispatcher waits in a read of the wire: it has
     * dispatched all it took, and nothing it reads from now on counts.
     */
    public boolean endedWhileDispatcherReads() {
        lock.lock();
        try {
            return end == End.EARLY && owner == WireOwner.DISPATCHER;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ the dispatcher

    /** Up to {@code len} bytes: from the ring, else from {@code wire} when nobody owns it; -1 at the end. */
    private int take(InputStream wire, byte[] b, int off, int len) throws IOException {
        lock.lock();
        try {
            dispatching = false;
            while (true) {
                if (bytes > 0) {
                    int n = ring.take(b, off, len);
                    bytes = ring.size();
                    changed.signalAll(); // a put waiting on a full ring
                    return tookBytes(n);
                }
                if (closed) {
                    throw new AsynchronousCloseException();
                }
                if (end != End.OPEN) {
                    return -1;
                }
                if (owner == WireOwner.NOBODY) {
                    return readWire(wire, b, off, len);
                }
                changed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The dispatcher's own read of the wire, with the lock let go for it. Held by the caller. */
    private int readWire(InputStream wire, byte[] b, int off, int len) throws IOException {
        owner = WireOwner.DISPATCHER;
        lock.unlock();
        int n;
        try {
            n = wire.read(b, off, len);
        } finally {
            lock.lock(); // a failed read keeps the wire owned: nobody reads a failed wire again
        }
        if (closed) {
            throw new AsynchronousCloseException();
        }
        owner = WireOwner.NOBODY;
        if (end != End.OPEN) {
            return -1; // the input was ended early: what came after does not count
        }
        if (n < 0) {
            end = End.WIRE;
            changed.signalAll(); // the reader thread runs the end-of-input rule
            return -1;
        }
        return tookBytes(n);
    }

    /** The dispatcher took {@code n} bytes and is away dispatching them: the reader thread checks on it. Held by the caller. */
    private int tookBytes(int n) {
        dispatching = true;
        taken++;
        if (readerResting) {
            changed.signalAll(); // the reader thread checks again while the dispatcher is away
        }
        return n;
    }

    /** The dispatcher's view of the input, reading {@code wire} itself whenever the ring is empty and nobody owns the wire. Single reader. */
    public InputStream dispatcherInput(InputStream wire) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : take(wire, b, off, len);
            }
        };
    }
}
