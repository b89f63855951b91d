package io.mcpwire.stdio.transport;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The frames waiting for the writer, bounded in bytes: {@link #put} blocks while the queue is
 * full (back-pressure from a client that does not read), except that a frame always enters an
 * empty queue, whatever its size. Frames leave in the order they entered, and one writer at a
 * time writes: the writer thread, or a sender that found the queue empty and idle and writes its
 * own frame at once ({@link #claimIdleWriter()}), which saves a thread hand-off per message when
 * the client keeps up.
 *
 * <p>Threads: senders call {@link #put} and {@link #claimIdleWriter}, the writer thread
 * {@link #take} and {@link #written}; everything is guarded by {@code lock}, and no callback
 * runs under it.
 */
public final class OutboundQueue {

    /**
     * One encoded message with its line terminator: the bytes of {@code parts}, in order, each
     * array used whole. Small messages are one part; large ones are several, so that encoding
     * never copies a whole large message to grow a buffer.
     *
     * @param parts  the bytes
     * @param length the total length
     */
    public record Frame(byte[][] parts, int length) {
    }

    private final long capacity;
    private final ArrayDeque<Frame> frames = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private long bytes;
    private boolean closed;
    private boolean writing;

    /** A queue that holds at most {@code capacityBytes} bytes (more only for one large frame). */
    public OutboundQueue(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    /** Adds a frame, waiting for room. */
    public void put(Frame frame) throws IOException {
        lock.lock();
        try {
            while (!closed && bytes > 0 && bytes + frame.length() > capacity) {
                notFull.awaitUninterruptibly();
            }
            if (closed) {
                throw new IOException("the transport is closed; the message was not sent");
            }
            frames.add(frame);
            bytes += frame.length();
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes the caller the writer when nothing is queued or being written: it then writes its
     * frame itself and calls {@link #written()}. False when it must {@link #put} instead.
     */
    public boolean claimIdleWriter() {
        lock.lock();
        try {
            if (closed || writing || !frames.isEmpty()) {
                return false;
            }
            writing = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the next frames, together at most {@code maxBytes} (at least one frame), waiting for
     * one and for any write in progress; null once the queue is closed and empty. Marks the
     * writer busy until {@link #written()}.
     */
    public List<Frame> take(int maxBytes) {
        lock.lock();
        try {
            while ((frames.isEmpty() || writing) && !closed) {
                notEmpty.awaitUninterruptibly();
            }
            if (frames.isEmpty()) {
                return null;
            }
            List<Frame> batch = new ArrayList<>();
            long size = 0;
            while (!frames.isEmpty() && (batch.isEmpty() || size + frames.peek().length() <= maxBytes)) {
                Frame f = frames.poll();
                batch.add(f);
                size += f.length();
            }
            bytes -= size;
            writing = true;
            notFull.signalAll();
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** The writer finished writing what it took. */
    public void written() {
        lock.lock();
        try {
            writing = false;
            if (!frames.isEmpty()) {
                notEmpty.signal(); // frames queued meanwhile wait for the writer thread
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is queued or being written. */
    public boolean isIdle() {
        lock.lock();
        try {
            return frames.isEmpty() && !writing;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses further frames, wakes every waiter, and drops what is queued; returns how many. */
    public int close() {
        lock.lock();
        try {
            closed = true;
            int dropped = frames.size();
            frames.clear();
            bytes = 0;
            notEmpty.signalAll();
            notFull.signalAll();
            return dropped;
        } finally {
            lock.unlock();
        }
    }
}
