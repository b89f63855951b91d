package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.rules.NativeMemory;

/**
 * A self-pipe: a blocking {@code poll} or {@code kevent} watches its read end beside what it waits
 * for, and {@link #wake()} writes one byte to it, once, which ends that wait. {@link #close()}
 * closes both ends, once; a closed pipe is never written. {@code wake} and {@code close} come from
 * other threads than the wait's.
 */
final class SelfPipe {
    private final PosixLib posix;
    private final int readEnd;
    private final int writeEnd;
    private boolean woken; // guarded by this
    private boolean closed; // guarded by this

    private SelfPipe(PosixLib posix, int readEnd, int writeEnd) {
        this.posix = posix;
        this.readEnd = readEnd;
        this.writeEnd = writeEnd;
    }

    /**
     * A new self-pipe, both ends above fd 2 and close-on-exec.
     *
     * @param operation what a failure names
     * @param fd        the descriptor the pipe serves, which a failure names; -1 for none
     */
    static SelfPipe open(PosixLib posix, String operation, int fd) throws DescriptorException {
        int[] ends = posix.pipeAboveStandard(operation, fd);
        return new SelfPipe(posix, ends[0], ends[1]);
    }

    /** The end a wait watches for {@code POLLIN}. */
    int readEnd() {
        return readEnd;
    }

    /** Writes one byte, once: the pipe never fills, and a closed pipe is never touched. */
    synchronized void wake() {
        if (woken || closed) {
            return;
        }
        woken = true;
        NativeMemory one = posix.libc().allocate(1);
        one.write(0, new byte[] {1}, 0, 1);
        posix.libc().write(writeEnd, one, 0, 1);
    }

    /** Closes both ends, once. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        posix.libc().close(readEnd);
        posix.libc().close(writeEnd);
    }
}
