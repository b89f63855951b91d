package io.mcpwire.platform.rules.windows;

import java.time.Duration;

/**
 * How long the Windows rules wait for a call that can wait behind another thread's I/O: a query
 * on fd 0 to 2 ({@code GetFileType} waits for the lock of a synchronous file object that a
 * blocked {@code ReadFile} or {@code WriteFile} holds) or a C runtime call on fd 0 to 2
 * ({@code _dup}, {@code _dup2} and {@code _close} wait for the C runtime's lock of the
 * descriptor that a native {@code _read} or {@code _write} holds). Neither wait has a timeout of
 * its own, so the rules make the call on a thread of its own and wait for it at most this long;
 * a call still running then is taken as stalled.
 */
@FunctionalInterface
public interface Patience {
    /** Half a second: a call that no lock holds up answers in microseconds. */
    Patience DEFAULT = of(Duration.ofMillis(500));

    /** A call made on a thread of its own. */
    interface Pending {
        /** The thread making it. */
        Thread worker();

        /** Waits up to {@code nanos} for it to return; whether it has. */
        boolean awaitReturn(long nanos) throws InterruptedException;
    }

    /**
     * Waits for {@code call}: true once it has returned, false when it is taken as stalled.
     *
     * @throws InterruptedException when the waiting thread is interrupted; the call goes on
     */
    boolean await(Pending call) throws InterruptedException;

    /** Waits up to {@code wait}. */
    static Patience of(Duration wait) {
        return new Bounded(wait.toNanos());
    }

    /** A wait of at most {@code nanos}: a class, since every JVM that loads the Windows rules makes the default. */
    record Bounded(long nanos) implements Patience {
        @Override
        public boolean await(Pending call) throws InterruptedException {
            return call.awaitReturn(nanos);
        }
    }
}
