package io.mcpwire.transport.engine;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Watches the process that started this one (its parent, as the JDK's {@link ProcessHandle} saw
 * it at start) on a daemon thread of its own, four times a second, and runs the given action on
 * that thread once it has exited. {@link ProcessHandle#onExit()} polls a process that is not a
 * child of this one at an interval that grows to five seconds; a host's user expects the server
 * to end with the host at once. {@code isAlive} checks the start time too, so a reused process id
 * is not taken for the host.
 */
public final class HostWatch {
    private static final long POLL_MILLIS = 250;
    /** Watches nothing. */
    public static final HostWatch NONE = new HostWatch(() -> { }, Optional.empty());

    private final Runnable starter;
    private final Optional<Thread> thread;

    private HostWatch(Runnable starter, Optional<Thread> thread) {
        this.starter = starter;
        this.thread = thread;
    }

    /**
     * Watches the parent process, when there is one, from {@link #start()}; {@code onExit} runs on
     * the watching thread.
     */
    public static HostWatch parent(Runnable onExit) {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty()) {
            return NONE;
        }
        ProcessHandle host = parent.get();
        Thread t = Daemons.thread(() -> {
            try {
                while (host.isAlive()) {
                    TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException stopped) {
                return;
            }
            onExit.run();
        }, "mcpwire-stdio-host-watch");
        return new HostWatch(t::start, Optional.of(t));
    }

    /**
     * Runs {@code onExit} on a watching thread once {@code exit} completes, from {@link #start()}:
     * a host's exit a test stands in for.
     */
    public static HostWatch of(CompletableFuture<?> exit, Runnable onExit) {
        return new HostWatch(() -> exit.thenRun(() -> Daemons.thread(onExit, "mcpwire-stdio-host-watch").start()),
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
