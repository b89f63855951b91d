package io.mcpwire.stdio.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes the client sent, handed from the thread that reads the wire to the thread that frames
 * and dispatches them, bounded in bytes. The reading thread never waits on the dispatcher except
 * when the pipe is full, so it sees end of input even while the dispatcher is stuck answering a
 * client that has stopped reading. {@link #input()} is the dispatcher's view: an input stream that
 * ends where the wire ended, and fails once the pipe is closed.
 */
public final class InboundPipe {
    private final long capacity;
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long bytes; // written under the lock, read without it by hasMore()
    private boolean ended;
    private boolean closed;

    /** A pipe that holds at most {@code capacityBytes} (one chunk more when empty). */
    public InboundPipe(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    /** Adds a chunk the wire gave, waiting while the pipe is full; false once it is closed or ended. */
    public boolean put(byte[] chunk) {
        lock.lock();
        try {
            while (!closed && !ended && bytes > 0 && bytes + chunk.length > capacity) {
                changed.awaitUninterruptibly();
            }
            if (closed || ended) {
                return false; // closing, or the input was ended early: the rest is not taken
            }
            chunks.add(chunk);
            bytes += chunk.length;
            changed.signalAll();
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

    private byte[] take() throws IOException {
        lock.lock();
        try {
            while (chunks.isEmpty() && !ended && !closed) {
                changed.awaitUninterruptibly();
            }
            byte[] c = chunks.poll();
            if (c == null && closed) {
                throw new AsynchronousCloseException();
            }
            if (c != null) {
                bytes -= c.length;
                changed.signalAll();
                return c;
            }
            return null; // ended
        } finally {
            lock.unlock();
        }
    }

    /** The dispatcher's view of the wire. Single reader. */
    public InputStream input() {
        return new InputStream() {
            private byte[] current;
            private int position;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                if (current == null || position == current.length) {
                    current = take();
                    position = 0;
                    if (current == null) {
                        return -1;
                    }
                }
                int n = Math.min(len, current.length - position);
                System.arraycopy(current, position, b, off, n);
                position += n;
                return n;
            }
        };
    }
}
