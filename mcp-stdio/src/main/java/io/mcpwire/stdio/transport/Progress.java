package io.mcpwire.stdio.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The transport's grace clock: counts every step forward (a line dispatched, an answer given, a
 * slice written) so that a wait can end after a grace period <em>without progress</em>, however
 * long a slow but living client takes.
 */
public final class Progress {
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Bumped by the dispatcher, the writer and senders for every message: an adder, not one contended word. */
    private final LongAdder steps = new LongAdder();

    /** One step forward. */
    public void step() {
        steps.increment();
    }

    /**
     * Waits until {@code done}, or until nothing has moved for {@code graceNanos}; true when done.
     * Checks every 10 ms: the conditions span several locks, and a grace period is seconds long.
     */
    public boolean await(BooleanSupplier done, long graceNanos) {
        long seen = steps.sum();
        long since = System.nanoTime();
        while (!done.getAsBoolean()) {
            long now = System.nanoTime();
            long s = steps.sum();
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
