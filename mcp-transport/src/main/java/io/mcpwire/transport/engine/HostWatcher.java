package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.TransportLog.LOG;

import io.mcpwire.stdio.HostWatch;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Watches the host ({@link HostWatch}): on a daemon thread of its own ({@code mcpwire-stdio-host-watch}),
 * four times a second, it looks whether each watched process still runs ({@link Ancestry}), and
 * runs the given action on that thread once one has ended. {@link ProcessHandle#onExit()} polls a
 * process that is not a child of this one at an interval that grows to five seconds; a host's user
 * expects the server to end with the host at once. A reused process id is not taken for the host
 * ({@code isAlive} checks the start time), and a Linux zombie counts as ended.
 *
 * <p>A launcher is not a host: a watched process that ends before the client has sent anything (a
 * double fork, {@code nohup ... &}, a detaching {@code start} that exits at once) is passed over,
 * logged once, and the ancestry is read again without it; once this process is the child of init,
 * nothing is watched. Threads: its own; the watched list is that thread's alone.
 */
public final class HostWatcher {
    private static final long POLL_MILLIS = 250;
    /** Watches nothing. */
    public static final HostWatcher NONE = new HostWatcher(() -> { }, Optional.empty());

    private final Runnable starter;
    private final Optional<Thread> thread;

    private HostWatcher(Runnable starter, Optional<Thread> thread) {
        this.starter = starter;
        this.thread = thread;
    }

    /**
     * Watches as {@code mode} says, from {@link #start()}; {@code onExit} runs on the watching
     * thread. {@code clientSpoke} says whether the session has received anything yet: until it has,
     * an ended ancestor is a launcher.
     */
    public static HostWatcher of(HostWatch mode, BooleanSupplier clientSpoke, Runnable onExit) {
        if (mode == HostWatch.OFF) {
            return NONE;
        }
        boolean throughWrappers = mode == HostWatch.ANCESTORS;
        return watching(passedOver -> Ancestry.watched(throughWrappers, passedOver), Ancestry::alive, clientSpoke, onExit);
    }

    /**
     * Watches what {@code ancestry} gives (given the processes passed over so far), each judged by
     * {@code alive}: the rule of {@link #of(HostWatch, BooleanSupplier, Runnable)}, over any ancestry.
     */
    static HostWatcher watching(Function<Set<Long>, List<ProcessHandle>> ancestry, Predicate<ProcessHandle> alive,
                                BooleanSupplier clientSpoke, Runnable onExit) {
        Thread t = Daemons.thread(() -> {
            Set<Long> passedOver = new HashSet<>();
            List<ProcessHandle> watched = new ArrayList<>(ancestry.apply(passedOver));
            describe(watched);
            try {
                while (!watched.isEmpty()) {
                    TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
                    Optional<ProcessHandle> ended = watched.stream().filter(alive.negate()).findFirst();
                    if (ended.isEmpty()) {
                        continue;
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
                    describe(watched);
                }
            } catch (InterruptedException stopped) {
                // the session ended first
            }
        }, "mcpwire-stdio-host-watch");
        return new HostWatcher(t::start, Optional.of(t));
    }

    private static void describe(List<ProcessHandle> watched) {
        LOG.log(Level.DEBUG, () -> watched.isEmpty() ? "the host watch has no process to watch"
                : "the host watch watches " + watched.stream().map(p -> p.pid() + " (" + p.info().command().orElse("?") + ")")
                        .collect(Collectors.joining(", ")));
    }

    /**
     * Runs {@code onExit} on a watching thread once {@code exit} completes, from {@link #start()}:
     * a host's exit a test stands in for.
     */
    public static HostWatcher of(CompletableFuture<?> exit, Runnable onExit) {
        return new HostWatcher(() -> exit.thenRun(() -> Daemons.thread(onExit, "mcpwire-stdio-host-watch").start()),
                Optional.empty());
    }

    /** Starts watching. */
    public void start() {
        starter.run();
    }

    /** Stops watching and waits for the watching thread to leave (unless it is the caller, running the action). */
    public void stop() {
        thread.filter(t -> t != Thread.currentThread()).ifPresent(t -> {
            t.interrupt();
            Daemons.join(t, 2_000);
        });
    }
}
