package io.mcpwire.stdio.engine;

import io.mcpwire.jsonrpc.RequestId;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The client's requests that have not been answered yet, so that end of input can wait for
 * their answers. A request id the client reused counts once per use.
 */
public final class PendingRequests {
    private final Map<RequestId, Integer> pending = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition empty = lock.newCondition();
    private int count;
    private boolean abandoned;

    /** A request arrived. */
    public void received(RequestId id) {
        lock.lock();
        try {
            pending.merge(id, 1, Integer::sum);
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** A response to {@code id} was queued, or the client cancelled it. */
    public void settled(RequestId id) {
        lock.lock();
        try {
            Integer n = pending.get(id);
            if (n == null) {
                return;
            }
            if (n == 1) {
                pending.remove(id);
            } else {
                pending.put(id, n - 1);
            }
            if (--count == 0) {
                empty.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every request is answered, the deadline passes, or {@link #abandon()}; returns what is left. */
    public int awaitAnswered(long deadlineNanos) {
        lock.lock();
        try {
            while (count > 0 && !abandoned) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    empty.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Stops any wait: the transport is closing now. */
    public void abandon() {
        lock.lock();
        try {
            abandoned = true;
            empty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
