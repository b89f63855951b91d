package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The calls on fd 0 to 2 that can wait behind another thread's I/O, each made on a thread of its
 * own and waited for with the table's {@link Patience}: one lane per standard descriptor (its C
 * runtime calls, and the moves of it with their duties) and one for queries. A call that does not
 * return in time leaves its lane wedged until it does: a later call on that lane is refused at
 * once rather than queued behind it, and what the late call's own step would still do on the
 * descriptors is refused too ({@link #refuseIfAbandoned}), since the claim has gone on without it.
 *
 * <p>A call that must be exclusive of Java child starts runs while the JDK's child-start monitor
 * is held, not by the call's thread but by a gate thread of its own
 * ({@code mcpwire-windows-child-start-gate}) from before the call until it returned or was given up
 * on: a call that waits too long then keeps no {@code ProcessBuilder.start()} of the process waiting.
 *
 * <p>Threads: the lanes' state is this object's monitor; a call's thread is a daemon named
 * {@code mcpwire-windows-fdN} or {@code mcpwire-windows-query}.
 */
final class Lanes {
    /** A call that can wait. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws DescriptorException;
    }

    /** The lane of query calls; 0 to 2 are the standard descriptors'. */
    static final int QUERY = 3;
    private static final String[] NAMES = {"mcpwire-windows-fd0", "mcpwire-windows-fd1", "mcpwire-windows-fd2", "mcpwire-windows-query"};
    private static final ThreadLocal<Running<?>> CURRENT = new ThreadLocal<>();

    private final Patience patience;
    /** Per lane, the call that did not return in time; null when the lane is free. */
    private final Running<?>[] stalled = new Running<?>[4];

    Lanes(Patience patience) {
        this.patience = patience;
    }

    /** One call on its thread: its outcome once it returns, and whether the claim gave up on it. */
    private static final class Running<T> implements Patience.Pending {
        final Call<T> call;
        final CountDownLatch returned = new CountDownLatch(1);
        volatile boolean abandoned;
        T result;
        DescriptorException failure;
        RuntimeException thrown;
        Thread worker;

        Running(Call<T> call) {
            this.call = call;
        }

        @Override
        public Thread worker() {
            return worker;
        }

        @Override
        public boolean awaitReturn(long nanos) throws InterruptedException {
            return returned.await(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Whether the calling thread is on {@code lane} now (a move's step calls back into the provider). */
    boolean onLane(int lane) {
        Running<?> r = CURRENT.get();
        return r != null && Thread.currentThread().getName().equals(NAMES[lane]);
    }

    /** Whether the calling thread runs a call the claim gave up on. */
    static boolean abandoned() {
        Running<?> r = CURRENT.get();
        return r != null && r.abandoned;
    }

    /**
     * Throws when the calling thread runs a call the claim gave up on: what it would still do on
     * {@code fd} comes too late and might undo what the claim did since.
     */
    static void refuseIfAbandoned(String what, int fd) throws DescriptorException {
        Running<?> r = CURRENT.get();
        if (r != null && r.abandoned) {
            throw new DescriptorException(what, fd, 0, "not made: the step it belongs to was given up on, since it "
                    + "waited too long for a lock another thread holds");
        }
    }

    /**
     * Makes {@code call} on {@code lane}'s thread and waits for it with the table's patience;
     * directly when the calling thread is on that lane already.
     *
     * @throws DescriptorException what the call threw; or, naming {@code what} and {@code fd}, when
     *                             the lane is wedged by an earlier call, or this one did not return
     *                             in time (its outcome is then unknown)
     */
    <T> T run(int lane, String what, int fd, Call<T> call) throws DescriptorException {
        return run(lane, what, fd, null, call);
    }

    /**
     * As {@link #run(int, String, int, Call)}, holding {@code childStartMonitor} (unless null) from
     * before the call until it returned or was given up on, through a gate thread.
     */
    <T> T run(int lane, String what, int fd, Object childStartMonitor, Call<T> call) throws DescriptorException {
        if (onLane(lane)) {
            return call.run(); // inside a call of this lane already: its gate is held
        }
        Gate gate = childStartMonitor == null ? null : new Gate(childStartMonitor);
        try {
            return runOnLane(lane, what, fd, call);
        } finally {
            if (gate != null) {
                gate.open();
            }
        }
    }

    /** Holds a monitor on a thread of its own until opened. */
    private static final class Gate {
        private final CountDownLatch release = new CountDownLatch(1);

        Gate(Object monitor) {
            CountDownLatch held = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                synchronized (monitor) {
                    held.countDown();
                    awaitUninterruptibly(release);
                }
            }, "mcpwire-windows-child-start-gate");
            t.setDaemon(true);
            t.start();
            awaitUninterruptibly(held); // a child start in progress ends first
        }

        void open() {
            release.countDown();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T runOnLane(int lane, String what, int fd, Call<T> call) throws DescriptorException {
        Running<T> r = new Running<>(call);
        synchronized (this) {
            Running<?> earlier = stalled[lane];
            if (earlier != null && earlier.returned.getCount() > 0) {
                throw new DescriptorException(what, fd, 0, "not made: an earlier call on " + describe(lane)
                        + " has not returned (a native thread or a child holds a lock it needs while it blocks)");
            }
            stalled[lane] = null;
        }
        Thread t = new Thread(() -> {
            CURRENT.set(r);
            try {
                r.result = r.call.run();
            } catch (DescriptorException e) {
                r.failure = e;
            } catch (RuntimeException e) {
                r.thrown = e;
            } finally {
                CURRENT.remove();
                r.returned.countDown();
            }
        }, NAMES[lane]);
        t.setDaemon(true);
        r.worker = t;
        t.start();
        if (!awaitPatiently(r)) {
            synchronized (this) {
                r.abandoned = true;
                stalled[lane] = r;
            }
            throw new DescriptorException(what, fd, 0, "did not return in time: it waits for a lock that another thread or "
                    + "a child holds while it blocks (the C runtime's lock of the descriptor, or its file object's); "
                    + "whether it took effect is not known");
        }
        if (r.failure != null) {
            throw r.failure;
        }
        if (r.thrown != null) {
            throw r.thrown;
        }
        return r.result;
    }

    private boolean awaitPatiently(Running<?> r) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return patience.await(r) || r.returned.getCount() == 0;
                } catch (InterruptedException e) {
                    interrupted = true; // the wait is bounded: finish it, and say so after
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String describe(int lane) {
        return lane == QUERY ? "the query thread" : "fd " + lane;
    }
}
