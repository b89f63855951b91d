package io.mcpwire.stdio.transport;

import io.mcpwire.claim.buffer.ByteRing;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes the client sent, handed from the thread that reads the wire to the thread that frames
 * and dispatches them, in a ring that starts small and grows, only while the dispatcher falls
 * behind, up to its capacity: the hand-off allocates nothing more however long the input, so a
 * line streamed past the size limit costs no memory beyond the ring and the framer's buffer. The reading thread never waits on the dispatcher except when the ring is full, so it sees
 * end of input even while the dispatcher is stuck answering a client that has stopped reading.
 * {@link #input()} is the dispatcher's view: an input stream that ends where the wire ended, and
 * fails once the pipe is closed.
 *
 * <p>Threads: the reader puts, the dispatcher reads; {@link #lock} guards the ring and the flags.
 */
public final class InboundPipe {
    private static final int INITIAL = 64 * 1024;
    private final ByteRing ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile int bytes; // the ring's size, written under the lock, read without it by hasMore()
    private boolean ended;
    private boolean closed;

    /** A pipe that holds at most {@code capacityBytes}. */
    public InboundPipe(int capacityBytes) {
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("capacityBytes < 1");
        }
        this.ring = new ByteRing(Math.min(INITIAL, capacityBytes), capacityBytes);
    }

    /**
     * Copies {@code b[off, off + len)} in, waiting while the ring is full; false once it is closed
     * or ended (the rest is not taken).
     */
    public boolean put(byte[] b, int off, int len) {
        lock.lock();
        try {
            while (len > 0) {
                while (!closed && !ended && ring.isFull()) {
                    changed.awaitUninterruptibly();
                }
                if (closed || ended) {
                    return false; // closing, or the input was ended early
                }
                int n = ring.put(b, off, len);
                off += n;
                len -= n;
                bytes = ring.size();
                changed.signalAll();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The wire ended: the dispatcher reads what is left, then end of input. */
    public void end() {
        lock.lock();
        try {
            ended = true;
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

    /** Whether bytes wait that the dispatcher has not taken; lock-free, for the hot path of a send. */
    public boolean hasMore() {
        return bytes > 0;
    }

    /** Copies up to {@code len} held bytes out, waiting while none are; -1 at the end. */
    private int take(byte[] b, int off, int len) throws IOException {
        lock.lock();
        try {
            while (bytes == 0 && !ended && !closed) {
                changed.awaitUninterruptibly();
            }
            if (bytes == 0) {
                if (closed) {
                    throw new AsynchronousCloseException();
                }
                return -1; // ended
            }
            int n = ring.take(b, off, len);
            bytes = ring.size();
            changed.signalAll();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** The dispatcher's view of the wire. Single reader. */
    public InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : take(b, off, len);
            }
        };
    }
}
