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
 * {@code mcpwire-windows-fdN} or {@code mcpwire-windows-query}. A thread that made a call, or held
 * a gate, waits a quarter of a second for the next of its kind before it ends ({@link Worker}): a
 * claim makes some twenty such calls in a burst at its start and again at its release, and a
 * thread started for each cost more than the calls themselves. A call never waits for a thread:
 * when none of its kind is idle, a new one starts, so a call that did not return in time holds
 * only its own.
 */
final class Lanes {
    /** A call that can wait. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws DescriptorException;
    }

    /** The lane of query calls; 0 to 2 are the standard descriptors'. */
    static final int QUERY = 3;
    /** The gate threads' kind, after the lanes'. */
    private static final int GATE = 4;
    private static final String[] NAMES = {"mcpwire-windows-fd0", "mcpwire-windows-fd1", "mcpwire-windows-fd2", "mcpwire-windows-query",
            "mcpwire-windows-child-start-gate"};
    /** How long a thread waits for the next call of its kind before it ends. */
    private static final long KEEP_ALIVE_MILLIS = 250;
    /**
     * Per kind of thread, those that wait for a call (null slots for none). Two, since calls of one
     * kind can come back to back: the gate of a move is given to the next move's gate before its
     * thread has let go of the monitor and come back to wait. Guarded by itself.
     */
    private static final Worker[][] IDLE = new Worker[NAMES.length][2];
    private static final ThreadLocal<Running<?>> CURRENT = new ThreadLocal<>();

    private final Patience patience;
    /** Per lane, the call that did not return in time; null when the lane is free. */
    private final Running<?>[] stalled = new Running<?>[4];

    Lanes(Patience patience) {
        this.patience = patience;
    }

    /** One call on its thread: its outcome once it returns, and whether the claim gave up on it. */
    private static final class Running<T> implements Patience.Pending, Runnable {
        final Call<T> call;
        final CountDownLatch returned = new CountDownLatch(1);
        volatile boolean abandoned;
        T result;
        DescriptorException failure;
        RuntimeException thrown;
        volatile Thread worker;

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

        /** Makes the call, on its lane's thread. */
        @Override
        public void run() {
            CURRENT.set(this);
            try {
                result = call.run();
            } catch (DescriptorException e) {
                failure = e;
            } catch (RuntimeException e) {
                thrown = e;
            } finally {
                CURRENT.remove();
                returned.countDown();
            }
        }
    }

    /**
     * A daemon thread of one kind that runs what it is given, then waits up to
     * {@link #KEEP_ALIVE_MILLIS} for the next task of its kind and ends when none came, or when as
     * many of its kind wait already as may.
     */
    private static final class Worker implements Runnable {
        private final int kind;
        private final Thread thread;
        private Runnable task; // guarded by IDLE

        private Worker(int kind, Runnable first) {
            this.kind = kind;
            this.task = first;
            this.thread = new Thread(this, NAMES[kind]);
            thread.setDaemon(true);
        }

        /** Runs {@code task} on an idle thread of {@code kind}, else on a new one; returns that thread. */
        static Thread dispatch(int kind, Runnable task) {
            synchronized (IDLE) {
                Worker[] waiting = IDLE[kind];
                for (int i = 0; i < waiting.length; i++) {
                    Worker idle = waiting[i];
                    if (idle != null) {
                        waiting[i] = null;
                        idle.task = task;
                        IDLE.notifyAll();
                        return idle.thread;
                    }
                }
            }
            Worker fresh = new Worker(kind, task);
            fresh.thread.start();
            return fresh.thread;
        }

        @Override
        public void run() {
            Runnable next = task; // the first, given before the thread started
            while (next != null) {
                next.run();
                Thread.interrupted(); // an interrupt meant for one task is not the next one's
                next = awaitNext();
            }
        }

        /** The next task given to this thread; null when it ends. */
        private Runnable awaitNext() {
            synchronized (IDLE) {
                Worker[] waiting = IDLE[kind];
                int slot = 0;
                while (slot < waiting.length && waiting[slot] != null) {
                    slot++;
                }
                if (slot == waiting.length) {
                    return null; // as many of its kind wait already as may
                }
                task = null;
                waiting[slot] = this;
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KEEP_ALIVE_MILLIS);
                while (task == null) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        waiting[slot] = null; // still this one: a dispatch empties the slot before it gives a task
                        return null;
                    }
                    try {
                        IDLE.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    } catch (InterruptedException e) {
                        // nobody interrupts these threads; the deadline still ends the wait
                    }
                }
                return task;
            }
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

    /** Holds a monitor on a gate thread until opened. */
    private static final class Gate implements Runnable {
        private final Object monitor;
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        Gate(Object monitor) {
            this.monitor = monitor;
            Worker.dispatch(GATE, this);
            awaitUninterruptibly(held); // a child start in progress ends first
        }

        @Override
        public void run() {
            synchronized (monitor) {
                held.countDown();
                awaitUninterruptibly(release);
            }
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
        r.worker = Worker.dispatch(lane, r);
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
