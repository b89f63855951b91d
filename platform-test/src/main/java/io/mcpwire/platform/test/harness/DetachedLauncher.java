package io.mcpwire.platform.test.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A launcher that starts a server detached and exits at once, on purpose, as a double fork,
 * {@code nohup ... &} or a detaching {@code start} does: the server is re-parented, its stdin a
 * fifo that a helper holds open. The session must go on: a request sent well after the launcher's
 * exit is answered. A POSIX shell. (A launcher that lingers until the server serves and then
 * leaves before the client speaks is the host watch's own unit test, {@code HostWatcherTest}.)
 */
public final class DetachedLauncher {
    private static final String LAUNCH = "f=$1; o=$2; p=$3; shift 3; mkfifo \"$f\"; "
            + "{ exec sleep 120; } > \"$f\" & echo $! > \"$p.helper\"; "
            + "( \"$@\" < \"$f\" > \"$o\" 2> \"$o.err\" & echo $! > \"$p\" ); exit 0";

    /**
     * What happened.
     *
     * @param answeredAfterTheLauncher whether the request sent {@code after} the launcher's exit was answered
     * @param stdout                   what the server wrote to stdout
     * @param stderr                   what it wrote to stderr
     */
    public record Outcome(boolean answeredAfterTheLauncher, String stdout, String stderr) {
    }

    /** The rest of a legacy opening and a request: a legacy server answers nothing before {@code notifications/initialized}. */
    public static final String INITIALIZED_AND_PING = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";

    private DetachedLauncher() {
    }

    /**
     * Launches {@code server} detached; once the launcher has exited, sends {@code first} (id 1)
     * and waits for its answer, waits {@code after}, sends {@code second} (id 2) and waits up to
     * {@code wait} for its answer; then ends the helper and the server.
     */
    public static Outcome run(List<String> server, String first, String second, Duration after, Path dir, Duration wait)
            throws IOException, InterruptedException {
        Path fifo = dir.resolve("stdin");
        Path out = dir.resolve("out");
        Path pid = dir.resolve("pid");
        List<String> command = new ArrayList<>(List.of("sh", "-c", LAUNCH, "sh", fifo.toString(), out.toString(), pid.toString()));
        command.addAll(server);
        Process launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("launcher.log").toFile()).start();
        Optional<ProcessHandle> helper = Optional.empty();
        Optional<ProcessHandle> serverProcess = Optional.empty();
        try {
            if (!launcher.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the launcher did not exit at once");
            }
            helper = awaitHandle(pid.resolveSibling("pid.helper"), wait);
            serverProcess = awaitHandle(pid, wait);
            send(fifo, first);
            boolean answered = awaitAnswer(out, "\"id\":1", wait);
            if (answered) {
                TimeUnit.MILLISECONDS.sleep(after.toMillis()); // the time a host leaves between requests; no state to wait for
                answered = serverProcess.map(ProcessHandle::isAlive).orElse(false);
                if (answered) {
                    send(fifo, second);
                    answered = awaitAnswer(out, "\"id\":2", wait);
                }
            }
            return new Outcome(answered, read(out), read(out.resolveSibling("out.err")));
        } finally {
            launcher.destroyForcibly();
            helper.ifPresent(ProcessHandle::destroyForcibly);
            serverProcess.ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Launches the command given as arguments detached, sends {@code initialize}, then, 3 s after
     * the launcher's exit, {@code notifications/initialized} and a {@code ping}; exits 0 when both
     * requests were answered.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("detached-launcher");
        Outcome o = run(List.of(args), DyingHost.INITIALIZE, INITIALIZED_AND_PING,
                Duration.ofSeconds(3), dir, Duration.ofSeconds(60));
        System.err.println("detached launcher: " + (o.answeredAfterTheLauncher()
                ? "the session went on after its launcher exited at once" : "the session did not outlive its launcher\n" + o.stderr()));
        System.exit(o.answeredAfterTheLauncher() ? 0 : 1);
    }

    /** Writes one line into the fifo, which the helper keeps open: no end of input. */
    private static void send(Path fifo, String line) throws IOException {
        try (OutputStream o = Files.newOutputStream(fifo)) {
            o.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static boolean awaitAnswer(Path out, String id, Duration wait) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (read(out).contains(id)) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polls a file another process writes
        }
        return false;
    }

    private static Optional<ProcessHandle> awaitHandle(Path pidFile, Duration wait) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) {
                return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
            }
            TimeUnit.MILLISECONDS.sleep(20); // polls a file the launcher writes
        }
        return Optional.empty();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
