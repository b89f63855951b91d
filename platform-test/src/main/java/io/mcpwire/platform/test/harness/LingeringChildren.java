package io.mcpwire.platform.test.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Processes a server's tool starts that would outlive the server, as a browser, a language server
 * or a stray {@code sleep} does: a {@code sleep 600}, and a shell that starts another one in the
 * background and waits for it (a grandchild). The tool ({@link #start()}) answers with their
 * process ids, which a test reads back from the answer ({@link #pids}) to see whether they ended
 * with the server. POSIX only: the processes are {@code sleep} and {@code sh}.
 */
public final class LingeringChildren {
    /** The tool's name, in every test server that has it. */
    public static final String TOOL = "spawn";
    /** The slow tool's name: it says so on stderr ({@link #SLOW_STARTED}), then waits {@link #SLOW}. */
    public static final String SLOW_TOOL = "slow";
    /** How long the slow tool takes. */
    public static final Duration SLOW = Duration.ofMillis(300);
    /** What the slow tool writes to stderr as it starts. */
    public static final String SLOW_STARTED = "slow: started";
    /** How long a server and its children may take to end: what hosts are promised. */
    public static final Duration PROMISE = DyingHost.PROMISE;

    private static final Pattern PIDS = Pattern.compile("pids (\\d+) (\\d+) (\\d+)");

    private LingeringChildren() {
    }

    /**
     * The tool: starts the two processes and returns {@code pids SLEEP SHELL GRANDCHILD}. Their
     * output goes nowhere, so that nothing but the tool's answer tells of them.
     */
    public static String start() throws IOException {
        Process sleep = new ProcessBuilder("sleep", "600").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
        Process shell = new ProcessBuilder("sh", "-c", "sleep 600 & echo $!; wait").redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
        String grandchild = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        return "pids " + sleep.pid() + " " + shell.pid() + " " + (grandchild == null ? "0" : grandchild.strip());
    }

    /** The slow tool: says that it started on stderr, then takes {@link #SLOW}. */
    public static String slow() throws InterruptedException {
        System.err.println(SLOW_STARTED);
        Thread.sleep(SLOW.toMillis()); // the tool's own work, not a wait for another thread
        return "slept " + SLOW.toMillis() + " ms";
    }

    private static java.io.File nullDevice() {
        return new java.io.File("/dev/null");
    }

    /** The process ids in the tool's answer, somewhere in {@code text}; empty when there are none. */
    public static List<Long> pids(String text) {
        Matcher m = PIDS.matcher(text);
        if (!m.find()) {
            return List.of();
        }
        return List.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    /**
     * Of {@code pids}, those still running: alive and, where {@code /proc} tells, not a zombie (an
     * ended process that an init which does not reap leaves behind).
     */
    public static List<Long> running(List<Long> pids) {
        List<Long> alive = new ArrayList<>();
        for (long pid : pids) {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !zombie(pid)) {
                alive.add(pid);
            }
        }
        return alive;
    }

    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"),
                    StandardCharsets.ISO_8859_1);
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Waits up to {@code within} for each of {@code pids} to end; returns those still running then.
     * Polled: the JDK offers no wait for another process's children.
     */
    public static List<Long> awaitEnd(List<Long> pids, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        List<Long> left = running(pids);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
            left = running(left);
        }
        return left;
    }

    /** Ends whatever of {@code pids} still runs: a test's clean-up. */
    public static void kill(List<Long> pids) {
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
}
