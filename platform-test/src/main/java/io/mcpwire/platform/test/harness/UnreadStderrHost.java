package io.mcpwire.platform.test.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A host that gives its server stderr as a pipe and does not read it, as some hosts do, until the
 * session is over: the pipe fills, and a server whose writes to stderr block stops answering. The
 * host initializes the server, calls one tool, and times the answer; then it closes the server's
 * stdin, only now reads stderr, and waits for the server to end.
 *
 * <p>From the command line, for servers outside a test's reach: {@code java -cp
 * mcpwire-platform-test.jar io.mcpwire.platform.test.harness.UnreadStderrHost TOOL ARGUMENTS_JSON COMMAND...}
 * prints how long the answer took and exits 0 when it came within {@link #PROMISE} and the server
 * then ended.
 */
public final class UnreadStderrHost {
    /** What a server owes a host that does not read stderr: the answer as soon as if it did, within this long. */
    public static final Duration PROMISE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);

    /**
     * What the host saw.
     *
     * @param answeredIn how long the tool call took to be answered; empty when no answer came
     * @param answer     the answer's line, or empty
     * @param exitCode   the server's exit code once stdin was closed and stderr read; empty when it still ran
     * @param stderr     all the server wrote to stderr
     */
    public record Outcome(Optional<Duration> answeredIn, String answer, Optional<Integer> exitCode, String stderr) {
        /** Whether the answer came within {@link #PROMISE}. */
        public boolean answeredInTime() {
            return answeredIn.isPresent() && answeredIn.get().compareTo(PROMISE) < 0;
        }
    }

    private UnreadStderrHost() {
    }

    /**
     * Runs {@code server}: {@code initialize} (legacy era) and {@code notifications/initialized},
     * then {@code tools/call} of {@code tool} with {@code arguments} (a JSON object), stderr unread
     * throughout; then stdin closed, stderr read, and the server's end awaited.
     */
    public static Outcome run(List<String> server, String tool, String arguments) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(server).redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE).redirectError(ProcessBuilder.Redirect.PIPE).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            OutputStream in = p.getOutputStream();
            send(in, DyingHost.INITIALIZE);
            CompletableFuture<String> initialized = lineWithId(out, 1);
            initialized.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            long sent = System.nanoTime();
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                    + "\",\"arguments\":" + arguments + "}}");
            Optional<Duration> answeredIn = Optional.empty();
            String answer = "";
            try {
                answer = lineWithId(out, 2).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                answeredIn = Optional.of(Duration.ofNanos(System.nanoTime() - sent));
            } catch (TimeoutException noAnswer) {
                // reported as an empty answeredIn
            }
            in.close();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(p));
            Optional<Integer> exit = p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS) ? Optional.of(p.exitValue()) : Optional.empty();
            if (exit.isEmpty()) {
                p.destroyForcibly();
            }
            return new Outcome(answeredIn, answer, exit, stderr.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the server did not answer initialize within " + WAIT.toSeconds() + " s", e);
        } finally {
            p.destroyForcibly();
        }
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The first line of stdout that answers {@code id}, read on a thread of its own. */
    private static CompletableFuture<String> lineWithId(BufferedReader out, int id) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.contains("\"id\":" + id + ",") || line.contains("\"id\":" + id + "}")) {
                        return line;
                    }
                }
                throw new IllegalStateException("stdout ended before the answer to id " + id);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String readAll(Process p) {
        try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(stderr could not be read: " + e + ")";
        }
    }

    /** Runs {@code TOOL ARGUMENTS_JSON COMMAND...}; exits 0 when answered within {@link #PROMISE} and the server then ended 0. */
    public static void main(String[] args) throws Exception {
        List<String> command = new ArrayList<>(List.of(args).subList(2, args.length));
        Outcome o = run(command, args[0], args[1]);
        String verdict = o.answeredIn().map(d -> "answered in " + d.toMillis() + " ms").orElse("gave no answer in " + WAIT.toSeconds() + " s");
        String end = o.exitCode().map(c -> "then exited " + c).orElse("then still ran " + WAIT.toSeconds() + " s after end of input");
        String drops = o.stderr().lines().filter(l -> l.contains("bytes of stray output dropped")).findFirst().orElse("(no drop count logged)");
        System.err.println("unread-stderr host: the server " + verdict + " with its stderr unread, " + end + "; " + drops.strip());
        System.exit(o.answeredInTime() && o.exitCode().equals(Optional.of(0)) ? 0 : 1);
    }
}
