package io.mcpwire.examples;

import io.mcpwire.check.Finding;
import io.mcpwire.check.McpSession;
import io.mcpwire.check.Phase;
import io.mcpwire.check.ServerWire;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.Implementation;
import io.mcpwire.protocol.McpErrorCodes;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.RequestMeta;
import io.mcpwire.protocol.ResultType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Starts the demo server as a separate process with a plain {@code java -p ... -m ...}, runs an
 * MCP session against it in the legacy era (initialize, list, each tool, an unknown method, a line
 * that is not JSON) and another against a second one in the modern era (the probe, list, the
 * noisy tool, and an initialize the pinned connection refuses), and prints a short report. It
 * speaks through the wire checker's client ({@link McpSession} over a {@link ServerWire}), which
 * judges every line on the server's stdout as it arrives and every answer against its request.
 * Exits 0 only when every answer arrived and the wire stayed clean.
 */
public final class DemoClient {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The size of the payload the client asks for, in KiB. */
    static final int PAYLOAD_KIB = 1024;

    /** One step of the session and what came of it. */
    public record Step(String what, String outcome, boolean ok) {
    }

    /**
     * What the sessions showed.
     *
     * @param messages the JSON-RPC messages the servers wrote on their stdout
     * @param findings what the checker found wrong: stray output, missing or doubled answers
     */
    public record Report(List<Step> steps, int messages, List<Finding> findings, String stderr, int exitCode) {
        /** Every step succeeded, the wire carried only JSON-RPC, every request had one answer, and the server exited cleanly. */
        public boolean passed() {
            return steps.stream().allMatch(Step::ok) && findings.isEmpty() && exitCode == 0;
        }

        /** This session's report followed by {@code next}'s: the exit code is the first that is not 0. */
        Report then(Report next) {
            List<Step> all = new ArrayList<>(steps);
            all.addAll(next.steps);
            List<Finding> found = new ArrayList<>(findings);
            found.addAll(next.findings);
            return new Report(List.copyOf(all), messages + next.messages, List.copyOf(found), stderr + next.stderr,
                    exitCode != 0 ? exitCode : next.exitCode);
        }
    }

    private final McpSession session;
    private final List<Step> steps = new ArrayList<>();
    /** Messages taken off the wire outside the session: the answer to the line that is not JSON. */
    private int taken;

    private DemoClient(McpSession session) {
        this.session = session;
    }

    /** One session, on a server of its own: an era is the connection's. */
    private interface Session {
        void run(DemoClient client) throws InterruptedException;
    }

    /**
     * Runs two sessions, each against a server that {@code serverCommand} starts: a legacy one
     * (opened by {@code initialize}) and a modern one (2026-07-28, opened by the
     * {@code server/discover} probe that hosts send first).
     */
    public static Report run(List<String> serverCommand) throws IOException, InterruptedException {
        return run(serverCommand, DemoClient::session).then(run(serverCommand, DemoClient::modernSession));
    }

    private static Report run(List<String> serverCommand, Session script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(serverCommand).start();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "<" + e + ">";
            }
        });
        ServerWire wire = new ServerWire(p.getOutputStream(), p.getInputStream());
        DemoClient c = new DemoClient(new McpSession(wire, TIMEOUT));
        script.run(c);
        c.session.endInputAndCollect();
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
            c.steps.add(new Step("exit", "the server did not exit within 60 s of end of input", false));
        }
        wire.awaitEndOfOutput(Duration.ofSeconds(5)); // what it wrote last is judged too
        String err;
        try {
            err = stderr.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            err = "<" + e + ">";
        }
        int messages = c.taken + c.session.fromServer().size() + c.session.answers();
        return new Report(List.copyOf(c.steps), messages, c.session.findings(), err, exited ? p.exitValue() : -1);
    }

    private void session() throws InterruptedException {
        ObjectNode init = JSON.objectNode().put("protocolVersion", McpProtocol.LATEST_LEGACY_VERSION);
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "mcpwire-demo-client").put("version", "0.1.0");
        JsonNode r = call(McpProtocol.INITIALIZE, init);
        check("initialize", r != null && McpProtocol.LATEST_LEGACY_VERSION.equals(text(r, "protocolVersion")),
                r == null ? "no result" : "protocol " + text(r, "protocolVersion") + ", server "
                        + text(r.get("serverInfo"), "name") + " " + text(r.get("serverInfo"), "version"));
        session.notify(McpProtocol.INITIALIZED, null);
        session.wire().phase(Phase.SESSION);

        r = call(McpProtocol.TOOLS_LIST, JSON.objectNode());
        List<String> names = new ArrayList<>();
        if (r != null && r.get("tools") != null) {
            r.get("tools").forEach(t -> names.add(text(t, "name")));
        }
        check("tools/list", names.equals(List.of("echo", "noisy", "payload", "spill")), String.join(", ", names));

        String hello = "hello over a clean wire";
        String echoed = toolText(callTool("echo", JSON.objectNode().put("text", hello)));
        check("tools/call echo", hello.equals(echoed), "\"" + echoed + "\"");

        String noisy = toolText(callTool("noisy", JSON.objectNode()));
        check("tools/call noisy", noisy != null && noisy.startsWith("child exit code 0") && noisy.endsWith("end of input"), noisy);

        String payload = toolText(callTool("payload", JSON.objectNode().put("kib", PAYLOAD_KIB)));
        int length = payload == null ? -1 : payload.length();
        check("tools/call payload " + PAYLOAD_KIB + " KiB", length == PAYLOAD_KIB * 1024, length + " characters");

        Optional<JsonRpcResponse> unknown = session.request("no/such/method", null);
        check("unknown method", unknown.orElse(null) instanceof JsonRpcError e && e.error().code() == -32601,
                describe(unknown.orElse(null)));

        session.wire().send("this line is not JSON");
        JsonRpcMessage parse = session.wire().next(TIMEOUT);
        taken += parse == null ? 0 : 1;
        check("a line that is not JSON", parse instanceof JsonRpcError e && e.id() == null
                && e.error().code() == -32700, describe(parse));

        Optional<JsonRpcResponse> pong = session.request(McpProtocol.PING, null);
        check("ping after the bad line", pong.orElse(null) instanceof JsonRpcResult, describe(pong.orElse(null)));
    }

    private void modernSession() throws InterruptedException {
        ObjectNode meta = RequestMeta.of(McpProtocol.LATEST_VERSION, new Implementation("mcpwire-demo-client", "0.1.0")).toJson();
        JsonNode r = call(McpProtocol.SERVER_DISCOVER, JSON.objectNode().set(MetaKeys.META, meta));
        String versions = r == null || !r.path("supportedVersions").isArray() ? "no result"
                : String.join(", ", r.get("supportedVersions").valueStream().map(JsonNode::asString).toList());
        session.wire().phase(Phase.SESSION);
        check("modern: server/discover", versions.contains(McpProtocol.LATEST_VERSION), "versions " + versions + ", server "
                + (r == null ? null : text(r.path(MetaKeys.META).get(MetaKeys.SERVER_INFO), "name")));

        r = call(McpProtocol.TOOLS_LIST, JSON.objectNode().set(MetaKeys.META, meta));
        check("modern: tools/list", r != null && r.path("tools").size() == DemoTools.all().size() && "complete".equals(text(r, ResultType.MEMBER)),
                r == null ? "no result" : r.path("tools").size() + " tools, resultType " + text(r, ResultType.MEMBER));

        ObjectNode noisyCall = JSON.objectNode().put("name", "noisy");
        noisyCall.putObject("arguments");
        String noisy = toolText(call(McpProtocol.TOOLS_CALL, noisyCall.set(MetaKeys.META, meta)));
        check("modern: tools/call noisy", noisy != null && noisy.startsWith("child exit code 0"), noisy);

        ObjectNode init = JSON.objectNode().put("protocolVersion", McpProtocol.LATEST_LEGACY_VERSION);
        Optional<JsonRpcResponse> refused = session.request(McpProtocol.INITIALIZE, init.toString());
        check("modern: initialize refused", refused.orElse(null) instanceof JsonRpcError e
                && e.error().code() == McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, describe(refused.orElse(null)));
    }

    private JsonNode callTool(String name, ObjectNode arguments) throws InterruptedException {
        return call(McpProtocol.TOOLS_CALL, JSON.objectNode().put("name", name).set("arguments", arguments));
    }

    private JsonNode call(String method, JsonNode params) throws InterruptedException {
        return session.request(method, params.toString()).orElse(null) instanceof JsonRpcResult result ? result.result() : null;
    }

    private void check(String what, boolean ok, String outcome) {
        steps.add(new Step(what, outcome, ok));
    }

    private static String toolText(JsonNode result) {
        if (result == null || result.get("content") == null || result.get("content").isEmpty()) {
            return null;
        }
        return text(result.get("content").get(0), "text");
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isString() ? v.stringValue() : null;
    }

    private static String describe(JsonRpcMessage m) {
        if (m instanceof JsonRpcError) {
            JsonRpcError e = (JsonRpcError) m;
            return "error " + e.error().code() + " (id " + e.id() + "): " + e.error().message();
        }
        return m == null ? "nothing" : m instanceof JsonRpcResult ? "result " + ((JsonRpcResult) m).result() : m.toString();
    }

    /** Prints the report for a person. */
    public static void print(Report r, PrintStream out) {
        out.println("mcpwire demo: a client drives the demo server over its stdin and stdout");
        r.stderr().lines().filter(l -> l.contains("stdio claimed")).findFirst()
                .ifPresent(l -> out.println("  server: " + l.substring(l.indexOf("stdio claimed"))));
        for (Step s : r.steps()) {
            String outcome = s.outcome() == null ? "null" : s.outcome();
            out.printf("  %-4s %-28s %s%n", s.ok() ? "ok" : "FAIL", s.what(), outcome.length() > 90 ? outcome.substring(0, 90) + "..." : outcome);
        }
        out.printf("  %-4s %-28s %d messages, %s%n", r.findings().isEmpty() ? "ok" : "FAIL", "server stdout",
                r.messages(), r.findings().isEmpty() ? "nothing but JSON-RPC, one answer per request: the wire stayed clean"
                        : r.findings().size() + " finding(s):");
        r.findings().forEach(f -> out.println("    ! " + f.kind() + " (" + f.phase() + "): " + f.detail()));
        out.println("  stray output, on the server's stderr where it belongs:");
        r.stderr().lines().filter(l -> l.contains("noisy:")).distinct().forEach(l -> out.println("    | " + l));
        out.printf("  server exit code %d%n", r.exitCode());
        out.println(r.passed() ? "PASS: every answer arrived and the wire carried nothing but JSON-RPC"
                : "FAIL: see above");
    }

    /**
     * The modules of this JVM's module path that call native code (the JNA library, the FFM
     * provider), comma-separated, for a server started on the same path: the JVM warns about a
     * module named in {@code --enable-native-access} that is not there, and about native calls
     * from one that is there and not named.
     */
    static String nativeAccessModules() {
        return Stream.of("com.sun.jna", "io.mcpwire.platform.ffm")
                .filter(name -> ModuleLayer.boot().findModule(name).isPresent())
                .collect(Collectors.joining(","));
    }

    /**
     * Runs the demo against the server that the arguments start (as {@code ./demo} passes them),
     * or, without arguments, against a server on this JVM's own module path.
     */
    public static void main(String[] args) throws Exception {
        List<String> command = args.length > 0 ? List.of(args) : List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=" + nativeAccessModules(),
                "-p", System.getProperty("jdk.module.path"),
                "-m", "io.mcpwire.examples/" + DemoServer.class.getName());
        Report r = run(command);
        print(r, System.out);
        System.exit(r.passed() ? 0 : 1);
    }
}
