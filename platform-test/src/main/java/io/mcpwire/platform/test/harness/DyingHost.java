package io.mcpwire.platform.test.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A host that dies while a helper it started still holds the write end of its server's stdin, as a
 * forked child or an inheritable handle does: end of input never comes, and the server must end
 * with its host all the same. The host is a POSIX shell: it starts the helper (which sends one
 * request, then holds a fifo open) and the server on that fifo, waits for the answer, and exits.
 *
 * <p>From the command line, for servers outside a test's reach:
 * {@code java -cp mcpwire-platform-test.jar io.mcpwire.platform.test.harness.DyingHost COMMAND...} prints how long the
 * server outlived its host and exits 0 when it ended within 3 s.
 */
public final class DyingHost {
    /** A request every MCP server answers, in either era's first exchange. */
    public static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"dying-host\",\"version\":\"1\"}}}";
    /** What hosts are promised: a server ends within this long of its host. */
    public static final Duration PROMISE = Duration.ofSeconds(3);

    private static final String HOST = "f=$1; o=$2; p=$3; shift 3; mkfifo \"$f\"; "
            + "{ printf '%s\\n' \"$REQUEST\"; exec sleep 120; } > \"$f\" & echo $! > \"$p.helper\"; "
            + "\"$@\" < \"$f\" > \"$o\" 2> \"$o.err\" & echo $! > \"$p\"; "
            + "while ! grep -q '\"id\":1' \"$o\" 2>/dev/null; do sleep 0.05; done; exit 0";

    /** How the host starts the server. */
    public enum Launch {
        /** The server is the host's child. */
        DIRECT,
        /**
         * Through a wrapper that waits for it, {@code sh -c '"$@"; exit $?'}, the shape of a wrapper
         * script that does not {@code exec} (and of {@code cmd /c} on Windows): the server's parent
         * is the wrapper, which outlives the host while the server runs.
         */
        THROUGH_A_WRAPPER
    }

    /**
     * What happened after the host died.
     *
     * @param outlived     how long the server ran on after its host exited; empty when it still ran at the wait's end
     * @param stdout       what the server wrote to stdout
     * @param stderr       what it wrote to stderr
     * @param helperHeld   whether the helper still held the server's stdin open when the host had exited
     * @param wrapperLived whether the wrapper between host and server was still alive when the host had
     *                     exited (true when there is none)
     */
    public record Outcome(Optional<Duration> outlived, String stdout, String stderr, boolean helperHeld, boolean wrapperLived) {
        /** Whether the server ended within {@link #PROMISE} of its host. */
        public boolean keptThePromise() {
            return outlived.isPresent() && outlived.get().compareTo(PROMISE) < 0;
        }
    }

    private DyingHost() {
    }

    /**
     * Runs {@code server} under a host that sends {@code request} (with id 1), waits for its
     * answer and dies; then waits up to {@code wait} for the server to end, and kills what is left.
     */
    public static Outcome run(List<String> server, String request, Path dir, Duration wait)
            throws IOException, InterruptedException {
        return run(server, Launch.DIRECT, request, dir, wait);
    }

    /**
     * Runs {@code server}, started as {@code launch} says, under a host that sends {@code request}
     * (with id 1), waits for its answer and dies; then waits up to {@code wait} for the server to
     * end, and kills what is left.
     */
    public static Outcome run(List<String> server, Launch launch, String request, Path dir, Duration wait)
            throws IOException, InterruptedException {
        Path fifo = dir.resolve("stdin");
        Path out = dir.resolve("out");
        Path pid = dir.resolve("pid");
        List<String> command = new ArrayList<>(List.of("sh", "-c", HOST, "sh", fifo.toString(), out.toString(), pid.toString()));
        if (launch == Launch.THROUGH_A_WRAPPER) {
            command.addAll(List.of("sh", "-c", "\"$@\"; exit $?", "wrapper"));
        }
        command.addAll(server);
        ProcessBuilder host = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("host.log").toFile());
        host.environment().put("REQUEST", request);
        Process p = host.start();
        Optional<ProcessHandle> helper = Optional.empty();
        Optional<ProcessHandle> serverProcess = Optional.empty();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the host got no answer from the server in 120 s: " + read(out.resolveSibling("out.err")));
            }
            long hostGone = System.nanoTime();
            helper = handle(pid.resolveSibling("pid.helper"));
            boolean held = helper.map(ProcessHandle::isAlive).orElse(false);
            serverProcess = handle(pid);
            boolean wrapperLived = true;
            if (launch == Launch.THROUGH_A_WRAPPER) {
                ProcessHandle wrapper = serverProcess.orElseThrow();
                wrapperLived = wrapper.isAlive();
                serverProcess = wrapper.children().findFirst(); // the server itself, the wrapper's child
            }
            Optional<Duration> outlived = Optional.empty();
            try {
                serverProcess.orElseThrow(() -> new IllegalStateException("no server under the wrapper"))
                        .onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
                outlived = Optional.of(Duration.ofNanos(System.nanoTime() - hostGone));
            } catch (TimeoutException stillRunning) {
                // reported as an empty outlived
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);
            }
            return new Outcome(outlived, read(out), read(out.resolveSibling("out.err")), held, wrapperLived);
        } finally {
            p.destroyForcibly();
            helper.ifPresent(ProcessHandle::destroyForcibly);
            serverProcess.ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Runs the command given as arguments under a dying host, through a wrapper with
     * {@code --through-a-wrapper} first; exits 0 when it ended within {@link #PROMISE}.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("dying-host");
        List<String> command = new ArrayList<>(List.of(args));
        Launch launch = command.remove("--through-a-wrapper") ? Launch.THROUGH_A_WRAPPER : Launch.DIRECT;
        Outcome o = run(command, launch, INITIALIZE, dir, Duration.ofSeconds(15));
        String verdict = o.outlived().map(d -> "ended " + d.toMillis() + " ms after its host").orElse("still ran 15 s after its host");
        System.err.println("dying host: the server " + verdict + (o.helperHeld() ? ", its stdin still held open" : "")
                + (launch == Launch.THROUGH_A_WRAPPER ? (o.wrapperLived() ? ", its wrapper alive" : ", its wrapper gone") : ""));
        System.exit(o.keptThePromise() && o.helperHeld() && o.wrapperLived() ? 0 : 1);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static Optional<ProcessHandle> handle(Path pidFile) throws IOException {
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
    }
}
