package io.mcpwire.transport.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The transport's grace clock: counts every step forward (a line dispatched, an answer given, a
 * slice written) so that a wait can end after a grace period <em>without progress</em>, however
 * long a slow but living client takes.
 */
public final class Progress {
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * Bumped by the dispatcher, the writer and senders a few times per message: one atomic add,
     * whose code is a few instructions on a path the JIT compiles early.
     */
    private final AtomicLong steps = new AtomicLong();

    /** One step forward. */
    public void step() {
        steps.incrementAndGet();
    }

    /**
     * Waits until {@code done}, or until nothing has moved for {@code graceNanos}; true when done.
     * Checks every 10 ms: the conditions span several locks, and a grace period is seconds long.
     */
    public boolean await(BooleanSupplier done, long graceNanos) {
        long seen = steps.get();
        long since = System.nanoTime();
        while (!done.getAsBoolean()) {
            long now = System.nanoTime();
            long s = steps.get();
            if (s != seen) {
                seen = s;
                since = now;
            } else if (now - since >= graceNanos) {
                return false;
            }
            LockSupport.parkNanos(Math.min(TICK_NANOS, graceNanos));
        }
        return true;
    }
}
