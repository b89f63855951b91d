package io.mcpwire.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The processes a server under check started, and theirs, as seen while it runs: its descendants,
 * looked at every {@value #LOOK_MILLIS} ms on a thread of their own until it exits (a process it
 * ends, or that ends, is reparented out of sight then, so they must be seen before). After the
 * server has exited, {@link #leftRunning()} says which of them still run.
 */
final class Descendants {
    static final long LOOK_MILLIS = 50;

    /**
     * One process seen, told apart from a later one with the same id by its start. It may have been
     * seen between its fork and its exec, so it is described as it runs at the end, not as first seen.
     */
    private record Seen(ProcessHandle handle, Optional<Instant> start) {
        boolean stillRunning() {
            return handle.isAlive() && !zombie(handle.pid())
                    && handle.info().startInstant().equals(start);
        }

        String described() {
            ProcessHandle.Info info = handle.info();
            return "pid " + handle.pid() + ": " + info.commandLine().or(info::command).orElse("?");
        }
    }

    private final Process server;
    private final Map<Long, Seen> seen = new ConcurrentHashMap<>();
    private final Thread looker;

    private Descendants(Process server) {
        this.server = server;
        this.looker = new Thread(this::lookUntilExit, "check-descendants");
        looker.setDaemon(true);
    }

    /** Starts looking at {@code server}'s descendants. */
    static Descendants of(Process server) {
        Descendants d = new Descendants(server);
        d.looker.start();
        return d;
    }

    private void lookUntilExit() {
        try {
            do {
                look();
            } while (!server.waitFor(LOOK_MILLIS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void look() {
        server.toHandle().descendants().forEach(p -> seen.computeIfAbsent(p.pid(), pid -> new Seen(p, p.info().startInstant())));
    }

    /** After the server exited: each process seen that still runs, described; empty while the server runs. */
    List<String> leftRunning() {
        if (server.isAlive()) {
            return List.of();
        }
        try {
            looker.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return seen.values().stream().filter(Seen::stillRunning).map(Seen::described).sorted().toList();
    }

    /** A process that ended and was not reaped, which the JDK counts as alive; told only where {@code /proc} is. */
    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
