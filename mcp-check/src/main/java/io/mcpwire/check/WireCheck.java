package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.protocol.ProtocolEra;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * One session with the server, as a host has it. It opens the way a dual-era host does
 * ({@link Opening}): the {@code server/discover} probe, then {@code initialize} when the server
 * is legacy. Then, in the era found: {@code tools/list}, a run of round trips ({@code ping} in the
 * legacy era, {@code server/discover} in the modern one, which has no ping), the tool calls asked
 * for, then a pipelined batch followed at once by end of input, and the wait for the server to
 * end. Every request must be answered exactly once; in the modern era every result must say its
 * {@code resultType}, and cacheable ones their cache hints.
 */
public final class WireCheck {
    private static final int ROUND_TRIPS = 20;
    private static final int BATCH = 10;
    /** How much longer than an answer the server may take to end after end of input, unless told ({@link Options#exitGrace()}). */
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
            // Each phase stops at its first unanswered request, and a server that opens no session
            // is asked nothing more: the check ends in about one timeout, not one per request.
            Opening opening = Opening.open(session, options, t0);
            List<Finding> findings = new ArrayList<>(opening.findings());
            OptionalDouble p50 = OptionalDouble.empty();
            if (opening.dialect().isPresent()) {
                Dialect d = opening.dialect().get();
                server.wire().phase(Phase.SESSION);
                if (d.era() == ProtocolEra.LEGACY) {
                    session.notify("notifications/initialized", null);
                }
                findings.addAll(ResultRules.judge(d, "tools/list", session.request("tools/list", d.params("{}"))));
                p50 = roundTripMedian(session, d, findings);
                for (Options.ToolCall call : options.calls()) {
                    Optional<JsonRpcResponse> answer = session.request("tools/call", d.params(toolCallParams(call.name(), call.arguments())));
                    if (answer.isEmpty()) {
                        break;
                    }
                    findings.addAll(ResultRules.judge(d, "tools/call", answer));
                }
                // A pipelined batch, then end of input at once: a server owes all of them.
                for (int i = 0; i < BATCH; i++) {
                    session.send(d.roundTrip(), d.params(null));
                }
            }
            return end(server, session, opening.verdict(), findings, opening.openMillis(), p50, options.timeout(), options.exitGrace());
        } finally {
            server.kill();
        }
    }

    /** The median of up to {@link #ROUND_TRIPS} sequential round trips; the run stops at the first one unanswered. */
    private static OptionalDouble roundTripMedian(McpSession session, Dialect d, List<Finding> findings) throws InterruptedException {
        long[] rtt = new long[ROUND_TRIPS];
        int answered = 0;
        for (int i = 0; i < ROUND_TRIPS; i++) {
            long s = System.nanoTime();
            Optional<JsonRpcResponse> answer = session.request(d.roundTrip(), d.params(null));
            if (answer.isEmpty()) {
                break;
            }
            rtt[answered++] = System.nanoTime() - s;
            if (i == 0) {
                findings.addAll(ResultRules.judge(d, d.roundTrip(), answer));
            }
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
                    + BigDecimal.valueOf(allowed.toMillis(), 3).stripTrailingZeros().toPlainString() + " s of end of input; it was stopped",
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
     * for the server to end (an answer's timeout plus {@code exitGrace}), and reports.
     *
     * @param era         the era spoken, and why
     * @param found       what was found already, beside what the session and the wire found
     * @param openMillis  time to the answer that opened the session, if one came
     * @param roundTripP50Micros the median round trip, if round trips were timed
     * @param timeout     how long an answer may take
     * @param exitGrace   how much longer than that the server may take to end
     */
    public static Report end(CheckedServer server, McpSession session, EraVerdict era, List<Finding> found, OptionalDouble openMillis,
                             OptionalDouble roundTripP50Micros, Duration timeout, Duration exitGrace) throws InterruptedException {
        OptionalLong resident = server.residentBytes(); // after the session, while it still runs
        session.endInputAndCollect();
        Duration allowed = exitGrace.plus(timeout);
        OptionalInt exit = server.awaitExit(allowed);
        List<Finding> findings = new ArrayList<>(found);
        findings.addAll(session.findings());
        findings.addAll(endingFindings(exit, allowed));
        findings.addAll(ServerMessageRules.judge(era.era(), session.fromServer(), session.askedForLogMessages()));
        // Only a server that exited by itself: one stopped here leaves its children to no fault of its own.
        for (String left : exit.isPresent() ? server.leftRunning() : List.<String>of()) {
            findings.add(new Finding(Finding.Kind.LEFT_RUNNING, Phase.AFTER_END_OF_INPUT, left + " still ran after the server had exited",
                    "end the processes the server starts when it ends (mcpwire's claim does, mcpwire.children=end), "
                            + "or have them end with their parent"));
        }
        String err = server.stderr();
        List<String> head = err.lines().limit(5).collect(Collectors.toList());
        return new Report(server.command(), era, List.copyOf(findings), openMillis, roundTripP50Micros, exit,
                err.getBytes(StandardCharsets.UTF_8).length, head, server.wire().firstAnswerMillis(), resident);
    }
}
