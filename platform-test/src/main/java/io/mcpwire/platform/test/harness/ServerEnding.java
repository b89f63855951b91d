package io.mcpwire.platform.test.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A server with the {@link LingeringChildren} tools, run as a child over real pipes and ended the
 * ways a server ends: end of input, SIGTERM, its host's death with stdin held elsewhere. Each run
 * reports when the server ended and which of the processes its tool started still ran then.
 */
public final class ServerEnding {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"ending\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    /**
     * How a run went.
     *
     * @param ended      how long the server ran on after it was ended; empty when it still ran after the wait
     * @param exitCode   its exit status, when it ended
     * @param pids       the processes its tool started (empty when the tool did not answer)
     * @param outlived   of those, the ones still running {@link LingeringChildren#PROMISE} after the end
     * @param stdout     what the server wrote to stdout
     * @param stderr     what it wrote to stderr
     */
    public record Outcome(Optional<Duration> ended, Optional<Integer> exitCode, List<Long> pids, List<Long> outlived,
                          String stdout, String stderr) {
        /** Whether the server ended within the promise and its tool's processes with it. */
        public boolean allEnded() {
            return ended.isPresent() && ended.get().compareTo(LingeringChildren.PROMISE) < 0 && pids.size() == 3 && outlived.isEmpty();
        }

        /** For a failure message. */
        public String describe() {
            return "ended after " + ended.map(d -> d.toMillis() + " ms").orElse("(still running)") + ", exit " + exitCode
                    + ", pids " + pids + ", still running " + outlived + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /** How the server is ended once its tool has started its processes. */
    public enum Ending {
        /** The client closes stdin. */
        END_OF_INPUT,
        /** The host sends SIGTERM, as the 2026-07-28 stdio text has hosts do after closing stdin. */
        SIGTERM
    }

    private ServerEnding() {
    }

    /** A {@code tools/call} of {@code tool} with {@code id}. */
    public static String call(long id, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":{}}}";
    }

    /**
     * Runs {@code server}, has its tool start its processes, ends it as {@code ending} says, and
     * waits up to {@code wait} for it to exit. Kills whatever is left.
     */
    public static Outcome run(List<String> server, Ending ending, Duration wait) throws IOException, InterruptedException {
        Session s = Session.start(server);
        List<Long> pids = List.of();
        try {
            s.send(INITIALIZE, INITIALIZED, call(1, LingeringChildren.TOOL));
            pids = LingeringChildren.pids(s.awaitAnswer(1));
            long endedAt = System.nanoTime();
            if (ending == Ending.END_OF_INPUT) {
                s.closeInput();
            } else {
                s.process.toHandle().destroy(); // SIGTERM; Process.destroy() would close the streams too
            }
            return s.outcome(endedAt, pids, wait);
        } finally {
            s.kill(pids);
        }
    }

    /**
     * Runs {@code server} under a host that has its tool start its processes, then dies while a
     * helper holds the server's stdin open ({@link DyingHost}); waits up to {@code wait} for the
     * server to end.
     */
    public static Outcome runUnderADyingHost(List<String> server, Path dir, Duration wait) throws IOException, InterruptedException {
        String requests = String.join("\n", INITIALIZE, INITIALIZED, call(1, LingeringChildren.TOOL));
        DyingHost.Outcome o = DyingHost.run(server, requests, dir, wait);
        List<Long> pids = LingeringChildren.pids(o.stdout());
        try {
            List<Long> outlived = LingeringChildren.running(pids);
            return new Outcome(o.outlived(), Optional.empty(), pids, outlived, o.stdout(), o.stderr());
        } finally {
            LingeringChildren.kill(pids);
        }
    }

    /**
     * Runs {@code server}, sends {@code calls} calls of its slow tool, and once each has started
     * (it says so on stderr) sends SIGTERM; waits up to {@code wait} for the server to exit.
     */
    public static Outcome sigtermWithCallsInFlight(List<String> server, int calls, Duration wait)
            throws IOException, InterruptedException {
        Session s = Session.start(server);
        try {
            List<String> requests = new ArrayList<>(List.of(INITIALIZE, INITIALIZED));
            for (int i = 1; i <= calls; i++) {
                requests.add(call(i, LingeringChildren.SLOW_TOOL));
            }
            s.send(requests.toArray(String[]::new));
            if (!s.slowStarted(calls, Duration.ofSeconds(60))) {
                throw new IllegalStateException("the slow calls did not all start:\n" + s.err);
            }
            long endedAt = System.nanoTime();
            s.process.toHandle().destroy(); // SIGTERM, the streams left open to read the answers
            return s.outcome(endedAt, List.of(), wait);
        } finally {
            s.kill(List.of());
        }
    }

    /** One server process: its stdout read line by line here, its stderr on a thread of its own. */
    private static final class Session {
        final Process process;
        final BufferedReader stdout;
        final StringBuilder out = new StringBuilder();
        final StringBuffer err = new StringBuffer();
        final CountDownLatch errEnded = new CountDownLatch(1);
        volatile int started;

        private Session(Process process) {
            this.process = process;
            this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread t = new Thread(this::readStderr, "server-stderr");
            t.setDaemon(true);
            t.start();
        }

        static Session start(List<String> server) throws IOException {
            return new Session(new ProcessBuilder(server).start());
        }

        private void readStderr() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    err.append(line).append('\n');
                    if (line.contains(LingeringChildren.SLOW_STARTED)) {
                        synchronized (this) {
                            started++;
                            notifyAll();
                        }
                    }
                }
            } catch (IOException e) {
                err.append("(reading stderr failed: ").append(e).append(")\n");
            } finally {
                errEnded.countDown();
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        synchronized boolean slowStarted(int n, Duration within) throws InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            while (started < n && errEnded.getCount() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return started >= n;
        }

        void send(String... lines) throws IOException {
            OutputStream in = process.getOutputStream();
            for (String line : lines) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            in.flush();
        }

        void closeInput() throws IOException {
            process.getOutputStream().close();
        }

        /** Reads stdout up to the answer with {@code id}; returns it. */
        String awaitAnswer(long id) throws IOException {
            String marker = "\"id\":" + id + ",";
            for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
                out.append(line).append('\n');
                if (line.contains(marker) || line.endsWith("\"id\":" + id + "}")) {
                    return line;
                }
            }
            throw new IllegalStateException("the server's stdout ended before the answer to " + id + "\n" + out + "\n" + err);
        }

        Outcome outcome(long endedAt, List<Long> pids, Duration wait) throws IOException, InterruptedException {
            boolean exited = process.waitFor(Math.max(0, wait.toNanos() - (System.nanoTime() - endedAt)), TimeUnit.NANOSECONDS);
            Optional<Duration> ended = exited ? Optional.of(Duration.ofNanos(System.nanoTime() - endedAt)) : Optional.empty();
            List<Long> outlived = LingeringChildren.awaitEnd(pids,
                    LingeringChildren.PROMISE.minus(Duration.ofNanos(System.nanoTime() - endedAt)));
            if (!exited) {
                process.destroyForcibly().waitFor();
            }
            for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
                out.append(line).append('\n');
            }
            errEnded.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome(ended, exited ? Optional.of(process.exitValue()) : Optional.empty(), pids, outlived,
                    out.toString(), err.toString());
        }

        void kill(List<Long> pids) {
            process.destroyForcibly();
            LingeringChildren.kill(pids);
        }
    }
}
