package io.mcpwire.platform.rules.windows;

import java.util.HashMap;
import java.util.Map;

/**
 * The handles that a {@code ReadFile} or {@code WriteFile} of this table's streams is pending on.
 * Windows serialises synchronous I/O on a file object: a query ({@code GetFileType},
 * {@code GetFileInformationByHandle}) on any handle of a pipe that one of these calls is blocked
 * on waits until it ends, which on an idle wire, or a stderr nobody reads, is never. A query on
 * such a file is answered at once instead of made. I/O that is not the provider's (the
 * application's {@code System.in}, a native writer, a child) is not seen here: the query's
 * bounded wait ({@link Lanes}) is for that.
 *
 * <p>Threads: every method holds this object's monitor, never across a query.
 */
final class PendingIo {
    /** Handle to the number of calls pending on it. */
    private final Map<Long, Integer> pending = new HashMap<>();

    synchronized void enter(long handle) {
        pending.merge(handle, 1, Integer::sum);
    }

    synchronized void leave(long handle) {
        pending.computeIfPresent(handle, (h, n) -> n == 1 ? null : n - 1);
    }

    /** Whether a call is pending on the file object {@code handle} names ({@code CompareObjectHandles}, which does no I/O). */
    synchronized boolean pendingOn(Win32 w, long handle) {
        for (long on : pending.keySet()) {
            if (on == handle || Boolean.TRUE.equals(w.compareObjectHandles(on, handle))) {
                return true;
            }
        }
        return false;
    }
}
