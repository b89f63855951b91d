package io.mcpwire.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * One session with the server, as a host has it: {@code initialize}, {@code tools/list}, a run of
 * pings, the tool calls asked for, then a pipelined batch followed at once by end of input, and
 * the wait for the server to end. Every request must be answered exactly once.
 */
public final class WireCheck {
    private static final int PINGS = 20;
    private static final int BATCH = 10;
    /** How much longer than an answer the server may take to end after end of input. */
    public static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private WireCheck() {
    }

    /**
     * Starts {@code options.command()} and checks it.
     *
     * @throws IOException when the server cannot be started at all
     */
    public static Report run(Options options) throws IOException, InterruptedException {
        return run(CheckedServer.start(options.command()), options);
    }

    /** Checks a server already started, which has not been spoken to yet; stops it at the end. */
    public static Report run(CheckedServer server, Options options) throws InterruptedException {
        long t0 = System.nanoTime();
        McpSession session = new McpSession(server.wire(), options.timeout());
        try {
            OptionalDouble init = OptionalDouble.empty();
            OptionalDouble p50 = OptionalDouble.empty();
            // Each phase stops at its first unanswered request, and a server that does not answer
            // initialize is asked nothing more: the check ends in about one timeout, not one per request.
            if (session.request("initialize", initializeParams(options.protocolVersion(), "mcpwire-check")).isPresent()) {
                init = OptionalDouble.of((System.nanoTime() - t0) / 1e6);
                server.wire().phase(Phase.SESSION);
                session.notify("notifications/initialized", null);
                session.request("tools/list", "{}");
                p50 = pingMedian(session);
                for (Options.ToolCall call : options.calls()) {
                    if (session.request("tools/call", toolCallParams(call.name(), call.arguments())).isEmpty()) {
                        break;
                    }
                }
                // A pipelined batch, then end of input at once: a server owes all of them.
                for (int i = 0; i < BATCH; i++) {
                    session.send("ping", null);
                }
            }
            return end(server, session, init, p50, options.timeout());
        } finally {
            server.kill();
        }
    }

    /** The median of up to {@link #PINGS} sequential pings; the run stops at the first one unanswered. */
    private static OptionalDouble pingMedian(McpSession session) throws InterruptedException {
        long[] rtt = new long[PINGS];
        int answered = 0;
        for (int i = 0; i < PINGS; i++) {
            long s = System.nanoTime();
            if (session.request("ping", null).isEmpty()) {
                break;
            }
            rtt[answered++] = System.nanoTime() - s;
        }
        return answered == 0 ? OptionalDouble.empty()
                : OptionalDouble.of(Arrays.stream(rtt, 0, answered).sorted().toArray()[answered / 2] / 1e3);
    }

    /** The params of an {@code initialize} request from a client named {@code client}. */
    public static String initializeParams(String protocolVersion, String client) {
        return "{\"protocolVersion\":" + JsonText.string(protocolVersion) + ",\"capabilities\":{},\"clientInfo\":{\"name\":"
                + JsonText.string(client) + ",\"version\":\"1\"}}";
    }

    /** The params of a {@code tools/call} request; {@code arguments} is a JSON object's text. */
    public static String toolCallParams(String name, String arguments) {
        return "{\"name\":" + JsonText.string(name) + ",\"arguments\":" + arguments + "}";
    }

    /**
     * What is wrong with how the server ended: nothing, it did not end within {@code allowed}, or
     * it ended with a status other than 0.
     */
    public static List<Finding> endingFindings(OptionalInt exit, Duration allowed) {
        if (exit.isEmpty()) {
            return List.of(new Finding(Finding.Kind.NO_EXIT, Phase.AFTER_END_OF_INPUT, "the server did not end within "
                    + allowed.toSeconds() + " s of end of input; it was stopped",
                    "a non-daemon thread keeps the JVM alive, or the server ignores end of input: exit when stdin closes"));
        }
        if (exit.getAsInt() != 0) {
            return List.of(new Finding(Finding.Kind.EXIT_STATUS, Phase.AFTER_END_OF_INPUT,
                    "the server exited with status " + exit.getAsInt() + " after end of input", ""));
        }
        return List.of();
    }

    /**
     * Ends a session as a host does: closes the server's stdin, takes the answers still owed, waits
     * for the server to end (an answer's timeout plus {@link #EXIT_GRACE}), and reports.
     *
     * @param initializeMillis time to the {@code initialize} answer, if one was asked for
     * @param pingP50Micros    the median ping round trip, if pings were timed
     */
    public static Report end(CheckedServer server, McpSession session, OptionalDouble initializeMillis,
                             OptionalDouble pingP50Micros, Duration timeout) throws InterruptedException {
        OptionalLong resident = server.residentBytes(); // after the session, while it still runs
        session.endInputAndCollect();
        Duration allowed = EXIT_GRACE.plus(timeout);
        OptionalInt exit = server.awaitExit(allowed);
        List<Finding> findings = new ArrayList<>(session.findings());
        findings.addAll(endingFindings(exit, allowed));
        String err = server.stderr();
        List<String> head = err.lines().limit(5).collect(Collectors.toList());
        return new Report(server.command(), List.copyOf(findings), initializeMillis, pingP50Micros, exit,
                err.getBytes(StandardCharsets.UTF_8).length, head, server.wire().firstAnswerMillis(), resident);
    }
}
