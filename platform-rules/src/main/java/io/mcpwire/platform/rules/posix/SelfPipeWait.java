package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.ProcessExits;

/**
 * What every POSIX wait for exits shares: a {@link SelfPipe} the wait watches beside the processes,
 * which {@link #wake()} writes, and the closing of the pipe with the wait's own descriptors
 * ({@link #closeOwn()}), once. {@code wake} and {@code close} come from other threads.
 */
abstract class SelfPipeWait implements ProcessExits.Wait {
    protected final PosixLib posix;
    protected final SelfPipe pipe;
    private boolean closed; // guarded by this

    SelfPipeWait(PosixLib posix, SelfPipe pipe) {
        this.posix = posix;
        this.pipe = pipe;
    }

    /** Closes the descriptors of the wait's own, beside the self-pipe; runs once. */
    protected abstract void closeOwn();

    @Override
    public final void wake() {
        pipe.wake();
    }

    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeOwn();
        pipe.close();
    }
}
