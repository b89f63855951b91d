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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

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
 * nothing is watched. Threads: its own, and {@link #stop()}'s caller, which wakes the wait.
 */
public final class HostWatcher {
    private static final long POLL_MILLIS = 250;
    /** Watches nothing. */
    public static final HostWatcher NONE = new HostWatcher(() -> { }, Optional.empty(), new Stop());

    private final Runnable starter;
    private final Optional<Thread> thread;
    private final Stop stop;

    private HostWatcher(Runnable starter, Optional<Thread> thread, Stop stop) {
        this.starter = starter;
        this.thread = thread;
        this.stop = stop;
    }

    /** Whether the watch was stopped, and the wait to wake when it is: shared by the watching thread and {@link #stop()}. */
    private static final class Stop {
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicReference<ProcessExits.Wait> current = new AtomicReference<>();

        void stop() {
            stopped.set(true);
            ProcessExits.Wait w = current.get();
            if (w != null) {
                try {
                    w.wake();
                } catch (RuntimeException e) {
                    // the stop goes on: the interrupt and the join still run
                    LOG.log(Level.DEBUG, "waking the host watch's wait failed: {0}", e.toString());
                }
            }
        }
    }

    /**
     * Watches as {@code mode} says, from {@link #start()}, waiting through {@code exits} where it
     * is given and the system grants the wait; {@code onExit} runs on the watching thread.
     * {@code clientSpoke} says whether the session has received anything yet: until it has, an
     * ended ancestor is a launcher.
     */
    public static HostWatcher of(HostWatch mode, Optional<ProcessExits> exits, BooleanSupplier clientSpoke, Runnable onExit) {
        if (mode == HostWatch.OFF) {
            return NONE;
        }
        boolean throughWrappers = mode == HostWatch.ANCESTORS;
        return watching(passedOver -> Ancestry.watched(throughWrappers, passedOver), Ancestry::alive, exits, clientSpoke, onExit);
    }

    /**
     * Watches what {@code ancestry} gives (given the processes passed over so far), each judged by
     * {@code alive}: the rule of {@link #of(HostWatch, Optional, BooleanSupplier, Runnable)}, over any ancestry.
     */
    static HostWatcher watching(Function<Set<Long>, List<ProcessHandle>> ancestry, Predicate<ProcessHandle> alive,
                                Optional<ProcessExits> exits, BooleanSupplier clientSpoke, Runnable onExit) {
        Stop stop = new Stop();
        Thread t = Daemons.thread(() -> {
            Set<Long> passedOver = new HashSet<>();
            List<ProcessHandle> watched = new ArrayList<>(ancestry.apply(passedOver));
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
                        ended = watched.stream().filter(alive.negate()).findFirst();
                        if (ended.isEmpty()) {
                            continue;
                        }
                    }
                    if (clientSpoke.getAsBoolean()) {
                        LOG.log(Level.DEBUG, "watched process {0} ended", ended.get().pid());
                        onExit.run();
                        return;
                    }
                    LOG.log(Level.INFO, "process {0}, which started this server, ended before the client sent anything: "
                            + "a launcher, not the host; watching the ancestry anew", ended.get().pid());
                    passedOver.add(ended.get().pid()); // a zombie stays in the ancestry until reaped: never again
                    watched = new ArrayList<>(ancestry.apply(passedOver));
                    describe(watched, waits);
                }
            } catch (InterruptedException stopped) {
                // the session ended first
            }
        }, "mcpwire-stdio-host-watch");
        return new HostWatcher(t::start, Optional.of(t), stop);
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
        LOG.log(Level.DEBUG, () -> watched.isEmpty() ? "the host watch has no process to watch"
                : "the host watch watches " + watched.stream().map(p -> p.pid() + " (" + p.info().command().orElse("?") + ")")
                        .collect(Collectors.joining(", "))
                        + waits.map(w -> ", waiting for exits through " + w).orElse(", polling four times a second"));
    }

    /** Starts watching. */
    public void start() {
        starter.run();
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
