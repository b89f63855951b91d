package io.mcpwire.stdio.transport;

import io.mcpwire.jsonrpc.RequestId;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The client's requests that have not been answered yet, so that end of input can wait for
 * their answers and count the ones never given. A request id the client reused counts once per use.
 */
public final class PendingRequests {
    private final Map<RequestId, Integer> pending = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private int count;

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

    /** A response to {@code id} was queued, or the client cancelled it; true when it was owed. */
    public boolean settled(RequestId id) {
        lock.lock();
        try {
            Integer n = pending.get(id);
            if (n == null) {
                return false;
            }
            if (n == 1) {
                pending.remove(id);
            } else {
                pending.put(id, n - 1);
            }
            count--;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a request with {@code id} is still owed an answer. */
    public boolean owes(RequestId id) {
        lock.lock();
        try {
            return pending.containsKey(id);
        } finally {
            lock.unlock();
        }
    }

    /** How many requests are owed an answer. */
    public int count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

}
