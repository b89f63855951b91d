package io.mcpwire.platform;

import java.nio.channels.AsynchronousCloseException;

/**
 * A base for {@link DescriptorStream}s of real descriptor tables: it counts the calls in flight,
 * makes every call after {@link #wakeUp()} fail, and frees the stream's own resources (a wake-up
 * pipe, thread handles) only once no call is left in flight, since a resource freed under a
 * blocked call could be recycled under it.
 *
 * <p>A read or write brackets its blocking part with {@link #enter()} and {@link #exit()}.
 */
public abstract class AbstractDescriptorStream implements DescriptorStream {
    private boolean woken;
    private boolean closed;
    private boolean freed;
    private int active;

    /** For subclasses. */
    protected AbstractDescriptorStream() {
    }

    /**
     * Starts a call.
     *
     * @throws AsynchronousCloseException when the stream was woken or closed
     */
    protected final synchronized void enter() throws AsynchronousCloseException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
        active++;
        entered();
    }

    /** Ends a call started by {@link #enter()}; frees the resources if the stream was closed meanwhile. */
    protected final synchronized void exit() {
        exited();
        if (--active == 0 && closed) {
            release();
        }
    }

    /**
     * Throws when the stream has been woken: for a call that loops, between its steps.
     *
     * @throws AsynchronousCloseException when the stream was woken or closed
     */
    protected final synchronized void checkWoken() throws AsynchronousCloseException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
    }

    /** Whether the resources have been freed: a late wake-up must not touch them. */
    protected final synchronized boolean isFreed() {
        return freed;
    }

    @Override
    public final void wakeUp() {
        synchronized (this) {
            woken = true;
            if (freed) {
                return;
            }
        }
        interruptCalls();
    }

    @Override
    public final void close() {
        wakeUp();
        synchronized (this) {
            closed = true;
            if (active == 0) {
                release();
            }
        }
    }

    private void release() {
        if (!freed) {
            freed = true;
            freeResources();
        }
    }

    /** Called under the stream's lock when a call starts; for bookkeeping such as the calling thread. */
    protected void entered() {
    }

    /** Called under the stream's lock when a call ends. */
    protected void exited() {
    }

    /**
     * Unblocks the calls in flight; called without the stream's lock, possibly more than once and
     * concurrently with {@link #freeResources()} (check {@link #isFreed()} under the lock).
     */
    protected abstract void interruptCalls();

    /** Frees the stream's own resources; called once, under the lock, with no call in flight. */
    protected abstract void freeResources();
}
