package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.RequestId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * One session with the server, as a host has it: {@code initialize}, {@code tools/list}, a run of
 * pings, the tool calls asked for, then a pipelined batch followed at once by end of input, and
 * the wait for the process to exit. Every request must be answered exactly once.
 */
public final class WireCheck {
    private static final int PINGS = 20;
    private static final int BATCH = 10;
    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private final Options options;
    private final Map<RequestId, Integer> answers = new HashMap<>();
    private final List<RequestId> asked = new ArrayList<>();
    private final List<Finding> unknown = new ArrayList<>();
    private long nextId = 1;

    private WireCheck(Options options) {
        this.options = options;
    }

    /**
     * Runs the check.
     *
     * @throws IOException when the server cannot be started at all
     */
    public static Report run(Options options) throws IOException, InterruptedException {
        return new WireCheck(options).check();
    }

    private Report check() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        ServerProcess server = ServerProcess.start(options.command());
        try {
            OptionalDouble init = OptionalDouble.empty();
            if (request(server, "initialize", "{\"protocolVersion\":\"" + options.protocolVersion()
                    + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcpwire-check\",\"version\":\"1\"}}")) {
                init = OptionalDouble.of((System.nanoTime() - t0) / 1e6);
            }
            server.phase(Phase.SESSION);
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            request(server, "tools/list", "{}");
            long[] rtt = new long[PINGS];
            int answered = 0;
            for (int i = 0; i < PINGS; i++) {
                long s = System.nanoTime();
                if (request(server, "ping", null)) {
                    rtt[answered++] = System.nanoTime() - s;
                }
            }
            for (Options.ToolCall call : options.calls()) {
                request(server, "tools/call", "{\"name\":" + jsonString(call.name()) + ",\"arguments\":" + call.arguments() + "}");
            }
            // A pipelined batch, then end of input at once: a server owes all of them.
            for (int i = 0; i < BATCH; i++) {
                send(server, "ping", null);
            }
            server.endInput();
            collect(server);
            OptionalInt exit = server.awaitExit(EXIT_GRACE.plus(options.timeout()));
            return report(server, init, answered == 0 ? OptionalDouble.empty()
                    : OptionalDouble.of(Arrays.stream(rtt, 0, answered).sorted().toArray()[answered / 2] / 1e3), exit);
        } finally {
            server.kill();
        }
    }

    /** Sends a request and waits for its answer; true when it came. */
    private boolean request(ServerProcess server, String method, String params) throws InterruptedException {
        RequestId id = send(server, method, params);
        long deadline = System.nanoTime() + options.timeout().toNanos();
        while (answers.getOrDefault(id, 0) == 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            JsonRpcMessage m = server.next(Duration.ofNanos(left));
            if (m == null) {
                return false;
            }
            take(m, server);
        }
        return true;
    }

    private RequestId send(ServerProcess server, String method, String params) {
        RequestId id = RequestId.of(nextId++);
        asked.add(id);
        server.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
                + (params != null ? ",\"params\":" + params : "") + "}");
        return id;
    }

    /** After end of input: whatever else arrives until the server closes its stdout or goes quiet. */
    private void collect(ServerProcess server) throws InterruptedException {
        JsonRpcMessage m;
        while ((m = server.next(options.timeout())) != null) {
            take(m, server);
            if (asked.stream().allMatch(id -> answers.getOrDefault(id, 0) > 0)) {
                // all answered: pick up doubles that are already on their way
                while ((m = server.next(Duration.ofMillis(200))) != null) {
                    take(m, server);
                }
                return;
            }
        }
    }

    private void take(JsonRpcMessage m, ServerProcess server) {
        if (!(m instanceof JsonRpcResponse r) || r.id() == null) {
            return; // a notification or a request of the server's own
        }
        if (!asked.contains(r.id())) {
            unknown.add(new Finding(Finding.Kind.UNKNOWN_ANSWER, Phase.SESSION, "an answer to id " + r.id()
                    + ", which no request had", ""));
            return;
        }
        answers.merge(r.id(), 1, Integer::sum);
    }

    private Report report(ServerProcess server, OptionalDouble init, OptionalDouble ping, OptionalInt exit) {
        List<Finding> findings = new ArrayList<>(server.findings());
        findings.addAll(unknown);
        for (RequestId id : asked) {
            int n = answers.getOrDefault(id, 0);
            long batchStart = nextId - BATCH;
            Phase phase = id instanceof RequestId.NumberId num && num.value() >= batchStart ? Phase.AFTER_END_OF_INPUT : Phase.SESSION;
            if (n == 0) {
                findings.add(new Finding(Finding.Kind.MISSING_ANSWER, phase, "request " + id + " was never answered",
                        phase == Phase.AFTER_END_OF_INPUT
                                ? "the server stops at end of input without answering what it has received: "
                                + "answer every request read before closing (mcpwire's transport does)"
                                : ""));
            } else if (n > 1) {
                findings.add(new Finding(Finding.Kind.DUPLICATE_ANSWER, phase, "request " + id + " was answered " + n + " times", ""));
            }
        }
        if (exit.isEmpty()) {
            findings.add(new Finding(Finding.Kind.NO_EXIT, Phase.AFTER_END_OF_INPUT, "the server did not exit within "
                    + EXIT_GRACE.plus(options.timeout()).toSeconds() + " s of end of input; it was killed",
                    "a non-daemon thread keeps the JVM alive, or the server ignores end of input: exit when stdin closes"));
        } else if (exit.getAsInt() != 0) {
            findings.add(new Finding(Finding.Kind.EXIT_STATUS, Phase.AFTER_END_OF_INPUT,
                    "the server exited with status " + exit.getAsInt() + " after end of input", ""));
        }
        String err = server.stderr();
        List<String> head = err.lines().limit(5).collect(Collectors.toList());
        return new Report(options.command(), List.copyOf(findings), init, ping, exit,
                err.getBytes(StandardCharsets.UTF_8).length, head);
    }

    private static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
