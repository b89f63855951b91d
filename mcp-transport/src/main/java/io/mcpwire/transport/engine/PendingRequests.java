package io.mcpwire.transport.engine;

import io.mcpwire.jsonrpc.RequestId;
import java.util.HashMap;
import java.util.Map;

/**
 * The client's requests that have not been answered yet, so that end of input can wait for
 * their answers and count the ones never given. A request id the client reused counts once per use.
 * Guarded by its monitor: two short sections per request, with nothing foreign called under them.
 */
public final class PendingRequests {
    private final Map<RequestId, Integer> pending = new HashMap<>();
    private int count;

    /** A request arrived. */
    public synchronized void received(RequestId id) {
        Integer n = pending.get(id);
        pending.put(id, n == null ? 1 : n + 1);
        count++;
    }

    /** A response to {@code id} was queued, or the client cancelled it; true when it was owed. */
    public synchronized boolean settled(RequestId id) {
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
    }

    /** Whether a request with {@code id} is still owed an answer. */
    public synchronized boolean owes(RequestId id) {
        return pending.containsKey(id);
    }

    /** How many requests are owed an answer. */
    public synchronized int count() {
        return count;
    }
}
