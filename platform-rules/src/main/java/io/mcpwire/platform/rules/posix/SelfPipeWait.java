package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.ProcessExits;

/**
 * What every POSIX wait for exits shares: a self-pipe whose read end the wait watches beside the
 * processes, written once by {@link #wake()}, and the closing of the pipe with the wait's own
 * descriptors ({@link #closeOwn()}), once. {@code wake} and {@code close} come from other threads.
 */
abstract class SelfPipeWait implements ProcessExits.Wait {
    protected final PosixLib posix;
    protected final int wakeRead;
    private final int wakeWrite;
    private boolean woken;
    private boolean closed;

    SelfPipeWait(PosixLib posix, int wakeRead, int wakeWrite) {
        this.posix = posix;
        this.wakeRead = wakeRead;
        this.wakeWrite = wakeWrite;
    }

    /** Closes the descriptors of the wait's own, beside the self-pipe; runs once. */
    protected abstract void closeOwn();

    /** Writes one byte to the self-pipe, once: the pipe never fills, and a closed pipe is never touched. */
    @Override
    public final synchronized void wake() {
        if (woken || closed) {
            return;
        }
        woken = true;
        posix.wake(wakeWrite);
    }

    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeOwn();
        posix.libc().close(wakeRead);
        posix.libc().close(wakeWrite);
    }
}
