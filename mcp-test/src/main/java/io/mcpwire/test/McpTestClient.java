package io.mcpwire.test;

import io.mcpwire.check.CheckedServer;
import io.mcpwire.check.Dialect;
import io.mcpwire.check.EraVerdict;
import io.mcpwire.check.Finding;
import io.mcpwire.check.McpSession;
import io.mcpwire.check.Opening;
import io.mcpwire.check.Options;
import io.mcpwire.check.Phase;
import io.mcpwire.check.Report;
import io.mcpwire.check.WireCheck;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.ProtocolEra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * An MCP client on the server under test, as a host speaks to it, for a test written with
 * {@link McpServerExtension}. Each method waits for its answer and fails the test (with an
 * {@link AssertionError}) when none comes in time or, for the typed methods, when the answer is
 * a JSON-RPC error. Everything the server writes is judged as it arrives; at the end of the test
 * the extension ends the session and fails the test when the wire was not clean, unless the test
 * ended it itself with {@link #endSession()} or {@link #check}. One thread at a time.
 *
 * <p>Both eras: {@link #initialize()} opens a legacy session, {@link #discover()} a modern one
 * (2026-07-28), in which every request carries the version, client and capabilities in its
 * {@code _meta}; {@link #open()} opens the era the extension pins ({@link McpServerExtension#era}),
 * or, when none is pinned, probes as a dual-era host does. The typed methods speak the era opened.
 * To run a test once in each era, make it a {@code @ParameterizedTest} over
 * {@code @EnumSource(ProtocolEra.class)} and call {@link #open(ProtocolEra)}.
 */
public final class McpTestClient {
    /** The protocol version {@link #initialize()} asks for. */
    public static final String PROTOCOL_VERSION = "2025-06-18";
    private static final String CLIENT = "mcpwire-test";

    private final CheckedServer server;
    private final Duration timeout;
    /** How much longer than {@link #timeout} the server may take to end after end of input. */
    private final Duration exitGrace;
    private final McpSession session;
    private final Optional<ProtocolEra> pinned;
    private Optional<Dialect> dialect = Optional.empty();
    private final List<Finding> openingFindings = new ArrayList<>();
    private Optional<EraVerdict> toldEra = Optional.empty(); // how open() told the era
    private OptionalDouble initializeMillis = OptionalDouble.empty();
    private final long started = System.nanoTime();
    private Optional<Report> ended = Optional.empty();
    private boolean spokenTo;

    McpTestClient(CheckedServer server, Duration timeout, Duration exitGrace, Optional<ProtocolEra> pinned) {
        this.server = server;
        this.timeout = timeout;
        this.exitGrace = exitGrace;
        this.pinned = pinned;
        this.session = new McpSession(server.wire(), timeout);
    }

    /**
     * Sends {@code initialize} and, once answered, {@code notifications/initialized}.
     *
     * @return the server's {@code initialize} result (protocol version, capabilities, server info)
     */
    public JsonNode initialize() {
        JsonNode result = result("initialize", WireCheck.initializeParams(PROTOCOL_VERSION, CLIENT));
        opened(Dialect.legacy(result.path("protocolVersion").asString(PROTOCOL_VERSION), CLIENT));
        session.notify("notifications/initialized", null);
        return result;
    }

    /**
     * Opens a modern session: sends {@code server/discover} in {@link McpProtocol#LATEST_VERSION}.
     *
     * @return the server's {@code DiscoverResult} (supported versions, capabilities, server info in {@code _meta})
     */
    public JsonNode discover() {
        Dialect modern = Dialect.modern(McpProtocol.LATEST_VERSION, CLIENT);
        JsonNode result = result(McpProtocol.SERVER_DISCOVER, modern.params(null));
        opened(modern);
        return result;
    }

    /** Opens a session in {@code era}: {@link #initialize()} or {@link #discover()}. */
    public void open(ProtocolEra era) {
        if (era == ProtocolEra.MODERN) {
            discover();
        } else {
            initialize();
        }
    }

    /**
     * Opens a session in the era the extension pins; when none is pinned, as a dual-era host
     * does and as mcpwire-check does ({@link Opening}): it probes with {@code server/discover}
     * and falls back to {@code initialize} on an error that is not one of the modern era's, or
     * after the probe goes unanswered as long as hosts wait. What was wrong with the opening (a
     * probe unanswered, say) is reported at the session's end with the rest.
     *
     * @return the era opened
     */
    public ProtocolEra open() {
        if (pinned.isPresent()) {
            open(pinned.get());
            return pinned.get();
        }
        spokenTo = true;
        Opening opening;
        try {
            opening = Opening.open(session, new Options(server.command(), false, PROTOCOL_VERSION, timeout, List.of()), started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while opening the session", e);
        }
        openingFindings.addAll(opening.findings()); // the session's end reports them, as the checker does
        toldEra = Optional.of(opening.verdict());
        Dialect opened = opening.dialect().orElseThrow(() -> new AssertionError("no session opened ("
                + opening.verdict().why() + "):\n" + describe(opening.findings())));
        opened(opened);
        if (opened.era() == ProtocolEra.LEGACY) {
            session.notify(McpProtocol.INITIALIZED, null);
        }
        return opened.era();
    }

    /** The era of the session opened; empty before one is. */
    public Optional<ProtocolEra> era() {
        return dialect.map(Dialect::era);
    }

    private void opened(Dialect d) {
        dialect = Optional.of(d);
        initializeMillis = OptionalDouble.of((System.nanoTime() - started) / 1e6);
        server.wire().phase(Phase.SESSION);
    }

    /** {@code params} in the era opened (with the modern {@code _meta}); as they are before a session opens. */
    private String params(String params) {
        return dialect.map(d -> d.params(params)).orElse(params);
    }

    /** Sends {@code tools/list}; the tools, each an object with its name, description and schema. */
    public List<JsonNode> listTools() {
        List<JsonNode> tools = new ArrayList<>();
        result("tools/list", params("{}")).path("tools").forEach(tools::add);
        return tools;
    }

    /** The names of {@link #listTools()}, in the server's order. */
    public List<String> toolNames() {
        return listTools().stream().map(t -> t.path("name").asString()).collect(Collectors.toList());
    }

    /**
     * Calls a tool.
     *
     * @param argumentsJson its arguments, the text of a JSON object, sent as it is
     * @return the {@code tools/call} result (its {@code content}, and {@code isError} when the tool failed)
     */
    public JsonNode callTool(String name, String argumentsJson) {
        return result("tools/call", params(WireCheck.toolCallParams(name, argumentsJson)));
    }

    /** Calls a tool and joins the text of its content; fails when the tool reports an error. */
    public String callToolText(String name, String argumentsJson) {
        JsonNode result = callTool(name, argumentsJson);
        if (result.path("isError").asBoolean(false)) {
            throw new AssertionError("tool " + name + " failed: " + result);
        }
        StringBuilder text = new StringBuilder();
        result.path("content").forEach(c -> text.append(c.path("text").asString("")));
        return text.toString();
    }

    /** Sends {@code ping} and waits for its answer; legacy era only (2026-07-28 removed it). */
    public void ping() {
        if (era().equals(Optional.of(ProtocolEra.MODERN))) {
            throw new IllegalStateException("ping does not exist in the modern era (2026-07-28 removed it); send server/discover");
        }
        result("ping", null);
    }

    /**
     * Sends any request.
     *
     * @param paramsJson its params as JSON, or null for none
     * @return the answer, a result or an error
     */
    public JsonRpcResponse request(String method, String paramsJson) {
        spokenTo = true;
        try {
            return session.request(method, paramsJson)
                    .orElseThrow(() -> new AssertionError("no answer to " + method + " within " + timeout + wireSoFar()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the answer to " + method, e);
        }
    }

    /** Sends a notification. */
    public void notify(String method, String paramsJson) {
        spokenTo = true;
        session.notify(method, paramsJson);
    }

    /** The session under this client, for pipelining requests ({@link McpSession#send}) and the like. */
    public McpSession session() {
        spokenTo = true;
        return session;
    }

    /** What is wrong with the wire so far: stray or glued output, unknown answers, requests unanswered. */
    public List<Finding> findings() {
        return session.findings();
    }

    /** What the server wrote to stderr so far. */
    public String stderr() {
        return server.stderr();
    }

    /** Fails the test when anything is wrong with the wire so far, quoting each finding. */
    public void assertWireClean() {
        List<Finding> found = findings();
        if (!found.isEmpty()) {
            throw new AssertionError("the wire is not clean:\n" + describe(found));
        }
    }

    /**
     * Ends the session as a host does: closes the server's stdin, takes the answers still owed and
     * waits for the server to end. The test then owns the verdict: the extension does not check
     * the wire again. Idempotent.
     *
     * @return what was found, including how the server ended
     */
    public Report endSession() {
        if (ended.isEmpty()) {
            try {
                EraVerdict verdict = toldEra.orElseGet(() -> new EraVerdict(dialect.map(Dialect::era).orElse(ProtocolEra.LEGACY),
                        dialect.map(Dialect::version), dialect.isPresent() ? "opened by the test" : "no session was opened", OptionalDouble.empty()));
                ended = Optional.of(WireCheck.end(server, session, verdict, openingFindings, initializeMillis, OptionalDouble.empty(), timeout,
                        exitGrace));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while ending the session", e);
            }
        }
        return ended.get();
    }

    /**
     * Runs mcpwire-check's whole session on this server (the opening in the pinned era, or the
     * probe when none is pinned; tools, round trips, the given calls, a pipelined batch and end of
     * input) and returns its report; the test owns the verdict. Only on a server not spoken to yet.
     */
    public Report check(Options.ToolCall... calls) {
        if (spokenTo || initializeMillis.isPresent() || ended.isPresent()) {
            throw new IllegalStateException("check() runs a whole session: call it on a server not spoken to yet");
        }
        try {
            Options.EraChoice era = pinned.map(e -> e == ProtocolEra.MODERN ? Options.EraChoice.MODERN : Options.EraChoice.LEGACY)
                    .orElse(Options.EraChoice.AUTO);
            Report report = WireCheck.run(server, new Options(server.command(), false, PROTOCOL_VERSION, timeout, List.of(calls))
                    .withEra(era).withExitGrace(exitGrace));
            ended = Optional.of(report);
            return report;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted during the check", e);
        }
    }

    /** Whether the session was ended, by the test or the extension. */
    boolean ended() {
        return ended.isPresent();
    }

    private JsonNode result(String method, String params) {
        JsonRpcResponse answer = request(method, params);
        if (answer instanceof JsonRpcError e) {
            throw new AssertionError(method + " failed: " + e.error().code() + " " + e.error().message()
                    + (e.error().data() != null ? " " + e.error().data() : ""));
        }
        return ((JsonRpcResult) answer).result();
    }

    private String wireSoFar() {
        List<Finding> found = findings();
        return (found.isEmpty() ? "" : "\nthe wire so far:\n" + describe(found))
                + (stderr().isEmpty() ? "" : "\nstderr so far:\n" + stderr());
    }

    static String describe(List<Finding> findings) {
        return findings.stream().map(f -> "  " + f.kind() + " (" + f.phase() + "): " + f.detail()
                + (f.advice().isEmpty() ? "" : "\n    likely cause: " + f.advice())).collect(Collectors.joining("\n"));
    }
}
