package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.TransportLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.stdio.HostWatch;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Watches the host ({@link HostWatch}): on a daemon thread of its own ({@code mcpwire-stdio-host-watch}),
 * it waits for a watched process ({@link Ancestry}) to end, and runs the given action on that
 * thread once one has. Where the claim's provider can wait for processes' exits
 * ({@link ProcessExits}: Linux's {@code pidfd_open}, macOS's {@code kqueue}, Windows'
 * {@code WaitForMultipleObjects}) the thread blocks in that wait and wakes only when a process
 * ends or the watch stops; elsewhere, or
 * once the system refused a wait or one failed, it looks four times a second for the rest of the
 * session. {@link ProcessHandle#onExit()} polls a process that is not a child of this
 * one at an interval that grows to five seconds; a host's user expects the server to end with the
 * host at once. A reused process id is not taken for the host ({@code isAlive} checks the start
 * time, after each wait opens), and a Linux zombie counts as ended.
 *
 * <p>A launcher is not a host: a watched process that ends before the client has sent anything (a
 * double fork, {@code nohup ... &}, a detaching {@code start} that exits at once) is passed over,
 * logged once, and the ancestry is read again without it; once this process is the child of init,
 * nothing is watched.
 *
 * <p>The ancestry is read once the thread runs, which under load can be after the first answer:
 * a host that dies at that answer would then be gone from it, and the server, now init's child,
 * would watch nothing. So nothing is written to the client before the ancestry is read
 * ({@link #awaitAncestry()}, which the writer calls before its first write).
 * Threads: its own, {@link #stop()}'s caller, which wakes the wait, and the writers that wait for the ancestry.
 */
public final class HostWatcher {
    private static final long POLL_MILLIS = 250;
    /** The longest the first write waits for the ancestry: its reading takes some 25 ms in a cold JVM. */
    static final long ANCESTRY_WAIT_MILLIS = 2_000;
    /** Watches nothing. */
    public static final HostWatcher NONE = new HostWatcher(Optional.empty(), Stop.stopped());

    /** What the watch asks of the session, and tells it, on the watching thread. */
    public interface Session {
        /** Whether the client has sent anything yet: until it has, an ended ancestor is a launcher. */
        boolean clientSpoke();

        /** A watched process ended after the client spoke: the session ends as at end of input. */
        void hostExited();
    }

    private final Optional<Thread> thread;
    private final Stop stop;

    private HostWatcher(Optional<Thread> thread, Stop stop) {
        this.thread = thread;
        this.stop = stop;
    }

    /**
     * Whether the watch was stopped, the wait to wake when it is, and whether the ancestry has been
     * read: shared by the watching thread, {@link #stop()} and the writers that wait for the ancestry.
     */
    private static final class Stop {
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicReference<ProcessExits.Wait> current = new AtomicReference<>();
        /**
         * Counted down once the ancestry was read, or will not be (the watch stopped, or its thread
         * never ran), or a writer waited for it in vain: from then on no write waits.
         */
        final CountDownLatch ancestryRead = new CountDownLatch(1);

        /** A watch that has nothing to read: no writer waits for it. */
        static Stop stopped() {
            Stop s = new Stop();
            s.stop();
            return s;
        }

        void stop() {
            stopped.set(true);
            ancestryRead.countDown();
            ProcessExits.Wait w = current.get();
            if (w != null) {
                try {
                    w.wake();
                } catch (RuntimeException e) {
                    // the stop goes on: the interrupt and the join still run
                    LOG.log(Level.DEBUG, "waking the wait of the host watch failed: {0}", e.toString());
                }
            }
        }
    }

    /**
     * Watches as {@code mode} says, from {@link #start()}, waiting through {@code exits} where it
     * is given and the system grants the wait; the session is asked and told on the watching thread.
     */
    public static HostWatcher of(HostWatch mode, Optional<ProcessExits> exits, Session session) {
        if (mode == HostWatch.OFF) {
            return NONE;
        }
        return watching(new Ancestors(mode == HostWatch.ANCESTORS), AncestryAlive.TEST, exits, session);
    }

    /**
     * Watches what {@code ancestry} gives (given the processes passed over so far), each judged by
     * {@code alive}: the rule of {@link #of(HostWatch, Optional, Session)}, over any ancestry.
     */
    static HostWatcher watching(Function<Set<Long>, List<ProcessHandle>> ancestry, Predicate<ProcessHandle> alive,
                                Optional<ProcessExits> exits, Session session) {
        Stop stop = new Stop();
        Thread t = Daemons.thread(new Watch(ancestry, alive, exits, session, stop), "mcpwire-stdio-host-watch");
        return new HostWatcher(Optional.of(t), stop);
    }

    /**
     * The process's ancestry as {@link Ancestry} reads it. This and {@link AncestryAlive} are
     * classes, not lambdas, since every session makes them on its way to its first answer, and a
     * lambda's first call generates a class at every start.
     */
    private record Ancestors(boolean throughWrappers) implements Function<Set<Long>, List<ProcessHandle>> {
        @Override
        public List<ProcessHandle> apply(Set<Long> passedOver) {
            return Ancestry.watched(throughWrappers, passedOver);
        }
    }

    /** Whether a watched process still runs, as {@link Ancestry#alive} judges it. */
    private enum AncestryAlive implements Predicate<ProcessHandle> {
        TEST;

        @Override
        public boolean test(ProcessHandle p) {
            return Ancestry.alive(p);
        }
    }

    /** The watching thread: waits, or polls, until a watched process ends after the client spoke, or the watch stops. */
    private static final class Watch implements Runnable {
        private final Function<Set<Long>, List<ProcessHandle>> ancestry;
        private final Predicate<ProcessHandle> alive;
        private final Optional<ProcessExits> exits;
        private final Session session;
        private final Stop stop;

        Watch(Function<Set<Long>, List<ProcessHandle>> ancestry, Predicate<ProcessHandle> alive, Optional<ProcessExits> exits,
              Session session, Stop stop) {
            this.ancestry = ancestry;
            this.alive = alive;
            this.exits = exits;
            this.session = session;
            this.stop = stop;
        }

        @Override
        public void run() {
            Set<Long> passedOver = new HashSet<>();
            List<ProcessHandle> watched;
            try {
                watched = read(passedOver);
            } finally {
                stop.ancestryRead.countDown(); // read, or failed: the writers go on either way
            }
            Optional<ProcessExits> waits = exits;
            describe(watched, waits);
            try {
                while (!watched.isEmpty() && !stop.stopped.get()) {
                    Optional<ProcessHandle> ended;
                    if (waits.isPresent()) {
                        try {
                            ended = awaitExit(waits.get(), watched, alive, stop);
                        } catch (DescriptorException | RuntimeException refused) {
                            // a system that refuses the wait, or a provider that fails at it: poll
                            LOG.log(Level.DEBUG, "the host watch cannot wait for exits ({0}): it polls four times a second",
                                    String.valueOf(refused.getMessage()));
                            waits = Optional.empty();
                            continue;
                        }
                        if (ended.isEmpty()) {
                            if (!stop.stopped.get()) {
                                // empty without a stop: a provider's wait that cannot be trusted
                                LOG.log(Level.DEBUG, "the host watch's wait ended with no exit and no stop: it polls four times a second");
                                waits = Optional.empty();
                            }
                            continue;
                        }
                    } else {
                        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
                        ended = firstEnded(watched, alive);
                        if (ended.isEmpty()) {
                            continue;
                        }
                    }
                    if (session.clientSpoke()) {
                        LOG.log(Level.DEBUG, "watched process {0} ended", ended.get().pid());
                        session.hostExited();
                        return;
                    }
                    LOG.log(Level.INFO, "process {0}, which started this server, ended before the client sent anything: "
                            + "a launcher, not the host; watching the ancestry anew", ended.get().pid());
                    passedOver.add(ended.get().pid()); // a zombie stays in the ancestry until reaped: never again
                    watched = read(passedOver);
                    describe(watched, waits);
                }
            } catch (InterruptedException stopped) {
                // the session ended first
            }
        }

        /** The ancestry without {@code passedOver}; none, logged, when it cannot be read. */
        private List<ProcessHandle> read(Set<Long> passedOver) {
            try {
                return new ArrayList<>(ancestry.apply(passedOver));
            } catch (RuntimeException unreadable) {
                LOG.log(Level.WARNING, "the host watch cannot read the ancestry of this process ({0}): it watches nothing, "
                        + "and the session ends at end of input only", String.valueOf(unreadable));
                return new ArrayList<>();
            }
        }
    }

    /** The first of {@code watched} that no longer runs. */
    private static Optional<ProcessHandle> firstEnded(List<ProcessHandle> watched, Predicate<ProcessHandle> alive) {
        for (ProcessHandle p : watched) {
            if (!alive.test(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * Blocks in the system's wait until a watched process ends; empty when the watch stops. A
     * process that ended before the wait opened, or whose id has been reused since, is found by its
     * handle once the wait is open, so that no exit falls between the ancestry's reading and the wait.
     */
    private static Optional<ProcessHandle> awaitExit(ProcessExits exits, List<ProcessHandle> watched,
                                                     Predicate<ProcessHandle> alive, Stop stop) throws DescriptorException {
        long[] pids = new long[watched.size()];
        for (int i = 0; i < pids.length; i++) {
            pids[i] = watched.get(i).pid();
        }
        try (ProcessExits.Wait wait = exits.watch(pids)) {
            stop.current.set(wait);
            if (stop.stopped.get()) {
                return Optional.empty();
            }
            for (ProcessHandle p : watched) {
                if (!alive.test(p)) {
                    return Optional.of(p);
                }
            }
            OptionalLong exited = wait.await();
            if (exited.isEmpty()) {
                return Optional.empty();
            }
            for (ProcessHandle p : watched) {
                if (p.pid() == exited.getAsLong()) {
                    return Optional.of(p);
                }
            }
            throw new IllegalStateException("the wait named process " + exited.getAsLong() + ", which it was not given");
        } finally {
            stop.current.set(null);
        }
    }

    private static void describe(List<ProcessHandle> watched, Optional<ProcessExits> waits) {
        if (!LOG.isLoggable(Level.DEBUG)) {
            return;
        }
        if (watched.isEmpty()) {
            LOG.log(Level.DEBUG, "the host watch has no process to watch");
            return;
        }
        StringBuilder what = new StringBuilder("the host watch watches ");
        for (int i = 0; i < watched.size(); i++) {
            ProcessHandle p = watched.get(i);
            what.append(i == 0 ? "" : ", ").append(p.pid()).append(" (").append(p.info().command().orElse("?")).append(')');
        }
        what.append(waits.isPresent() ? ", waiting for exits through " + waits.get() : ", polling four times a second");
        LOG.log(Level.DEBUG, what.toString());
    }

    /** Starts watching. */
    public void start() {
        if (thread.isPresent()) {
            try {
                thread.get().start();
            } catch (RuntimeException | Error noThread) {
                stop.ancestryRead.countDown(); // no ancestry will be read: nothing waits for one
                throw noThread;
            }
        }
    }

    /**
     * Returns once the watch has read the ancestry it watches, at once when it watches nothing or
     * has stopped: the writer calls it before its first write, so that a host that dies as soon as
     * it has an answer is still in the ancestry read. The read is some file reads, done on the
     * watching thread while the first request is handled. An interrupt does not end the wait (a
     * cancelled handler's send would otherwise go out first); it is kept for the caller. The wait
     * is bounded by {@link #ANCESTRY_WAIT_MILLIS}, so that a read that hangs (a process's command
     * line that the system cannot give) delays the first answer, not every answer.
     */
    public void awaitAncestry() {
        if (stop.ancestryRead.getCount() == 0) {
            return; // every write after the first: one volatile read
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANCESTRY_WAIT_MILLIS);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (!stop.ancestryRead.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                        LOG.log(Level.DEBUG, "the host watch has not read the ancestry within "
                                + ANCESTRY_WAIT_MILLIS + " ms: the first answer goes out without it");
                        stop.ancestryRead.countDown(); // the writes that follow do not wait again
                    }
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops watching and waits for the watching thread to leave (unless it is the caller, running the action). */
    public void stop() {
        stop.stop();
        thread.filter(t -> t != Thread.currentThread()).ifPresent(t -> {
            t.interrupt();
            Daemons.join(t, 2_000);
        });
    }
}
