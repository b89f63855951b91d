package io.mcpwire.transport.engine;

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
 * <p>A sender that has more to send soon (the dispatcher answering while more requests wait)
 * puts its frame without waking the writer: the writer then waits until the queue holds a batch,
 * until a sender has no more ({@link #markDue()}, or a frame put without {@code holdBack}), or
 * for at most {@link #LINGER_NANOS}, and writes them together. A run of answers costs one wake-up
 * and one write instead of one of each per answer, and none waits long behind a slow request.
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

    /** The most the writer writes at once, in bytes, and a batch that it writes without waiting for more. */
    public static final int BATCH_BYTES = 64 * 1024;
    /** The longest a frame put with more coming waits for others to join it. */
    static final long LINGER_NANOS = 1_000_000;

    private final long capacity;
    private final ArrayDeque<Frame> frames = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private long bytes;
    private boolean closed;
    private boolean writing;
    /** Whether what is queued is to be written now: a sender had no more to add, a batch filled, or room ran out. */
    private boolean due;

    /** A queue that holds at most {@code capacityBytes} bytes (more only for one large frame). */
    public OutboundQueue(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    /**
     * Adds a frame, waiting for room.
     *
     * @param holdBack whether the sender has more to send at once ({@link AnswerBatching}), so that
     *                 the writer may wait for it (up to {@link #LINGER_NANOS}) to write them together
     */
    public void put(Frame frame, boolean holdBack) throws IOException {
        lock.lock();
        try {
            while (!closed && bytes > 0 && bytes + frame.length() > capacity) {
                signalDue(); // a full queue is written now, not after the linger
                notFull.awaitUninterruptibly();
            }
            if (closed) {
                throw new IOException("the transport is closed; the message was not sent");
            }
            boolean wasEmpty = frames.isEmpty();
            frames.add(frame);
            bytes += frame.length();
            if (!holdBack || bytes >= BATCH_BYTES) {
                signalDue();
            } else if (wasEmpty) {
                notEmpty.signal(); // the writer starts its linger
            }
        } finally {
            lock.unlock();
        }
    }

    /** Marks what is queued due: the writer writes it now, without lingering for more. */
    public void markDue() {
        lock.lock();
        try {
            if (!frames.isEmpty()) {
                signalDue();
            }
        } finally {
            lock.unlock();
        }
    }

    private void signalDue() {
        due = true;
        notEmpty.signal();
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
     * Takes the next frames, together at most {@link #BATCH_BYTES} (at least one frame), waiting
     * for one and for any write in progress, and, while they are fewer than a batch and not due,
     * for up to {@link #LINGER_NANOS} for more; null once the queue is closed and empty. Marks the
     * writer busy until {@link #written()}.
     */
    public List<Frame> take() {
        lock.lock();
        try {
            boolean lingering = false;
            long lingerEnd = 0;
            while (!closed) {
                if (frames.isEmpty() || writing) {
                    notEmpty.awaitUninterruptibly();
                    continue;
                }
                if (due) {
                    break;
                }
                long now = System.nanoTime();
                if (!lingering) {
                    lingering = true;
                    lingerEnd = now + LINGER_NANOS;
                }
                if (now - lingerEnd >= 0 || !linger(lingerEnd - now)) {
                    break;
                }
            }
            if (frames.isEmpty()) {
                return null;
            }
            List<Frame> batch = new ArrayList<>();
            long size = 0;
            while (!frames.isEmpty() && (batch.isEmpty() || size + frames.peek().length() <= BATCH_BYTES)) {
                Frame f = frames.poll();
                batch.add(f);
                size += f.length();
            }
            bytes -= size;
            due = due && !frames.isEmpty();
            writing = true;
            notFull.signalAll();
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code nanos} for more frames; false when interrupted, so that the writer writes now. */
    private boolean linger(long nanos) {
        try {
            notEmpty.awaitNanos(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
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
