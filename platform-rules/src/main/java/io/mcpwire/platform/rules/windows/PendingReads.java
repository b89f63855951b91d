package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import java.util.HashMap;
import java.util.Map;

/**
 * The handles that a {@code ReadFile} is pending on, so that no query blocks behind one. Windows
 * serialises synchronous I/O on a pipe's file object: {@code GetFileType} (also inside
 * {@code _open_osfhandle}) or {@code GetFileInformationByHandle} on any handle of a pipe that
 * another thread is blocked reading waits until that read ends, which on an idle wire is never.
 *
 * <p>Threads: every method holds this object's monitor; a query runs under it, so no read starts
 * on its object while it runs, and a read registers before its call and leaves after it.
 */
final class PendingReads {
    /** Handle to the number of reads pending on it. */
    private final Map<Long, Integer> reads = new HashMap<>();

    /** A query that may do I/O on a handle. */
    @FunctionalInterface
    interface Query<T> {
        T run() throws DescriptorException;
    }

    synchronized void enter(long handle) {
        reads.merge(handle, 1, Integer::sum);
    }

    synchronized void leave(long handle) {
        reads.computeIfPresent(handle, (h, n) -> n == 1 ? null : n - 1);
    }

    /**
     * Runs {@code query} on {@code handle} (the OS handle of {@code fd}) unless a read is pending
     * on the same kernel object ({@code CompareObjectHandles}, which does no I/O).
     *
     * @throws DescriptorException naming the operation, without making the call, when one is
     */
    synchronized <T> T query(Win32 w, long handle, int fd, String op, Query<T> query) throws DescriptorException {
        for (long reading : reads.keySet()) {
            if (reading == handle || Boolean.TRUE.equals(w.compareObjectHandles(reading, handle))) {
                throw new DescriptorException(op, fd, 0, "a read is pending on the same pipe; Windows serialises "
                        + "synchronous I/O on it, so this query would block until that read ends (not made)");
            }
        }
        return query.run();
    }
}
