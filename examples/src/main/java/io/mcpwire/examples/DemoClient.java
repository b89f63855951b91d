package io.mcpwire.examples;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.Implementation;
import io.mcpwire.protocol.McpErrorCodes;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.RequestMeta;
import io.mcpwire.protocol.ResultType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * noisy tool, and an initialize the pinned connection refuses), checks that every byte on the
 * servers' stdout is valid JSON-RPC, and prints a short report. Exits 0 only when every answer arrived and the wire stayed clean.
 */
public final class DemoClient {
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** The size of the payload the client asks for, in KiB. */
    static final int PAYLOAD_KIB = 1024;

    /** One step of the session and what came of it. */
    public record Step(String what, String outcome, boolean ok) {
    }

    /** What the session showed. */
    public record Report(List<Step> steps, int stdoutLines, List<String> invalidLines, String stderr, int exitCode) {
        /** Every step succeeded, the wire carried only JSON-RPC, and the server exited cleanly. */
        public boolean passed() {
            return steps.stream().allMatch(Step::ok) && invalidLines.isEmpty() && exitCode == 0;
        }

        /** This session's report followed by {@code next}'s: the exit code is the first that is not 0. */
        Report then(Report next) {
            List<Step> all = new ArrayList<>(steps);
            all.addAll(next.steps);
            List<String> bad = new ArrayList<>(invalidLines);
            bad.addAll(next.invalidLines);
            return new Report(List.copyOf(all), stdoutLines + next.stdoutLines, List.copyOf(bad), stderr + next.stderr,
                    exitCode != 0 ? exitCode : next.exitCode);
        }
    }

    private final Process server;
    private final OutputStream toServer;
    private final BufferedReader fromServer;
    private final List<Step> steps = new ArrayList<>();
    private final List<String> invalid = new ArrayList<>();
    private int lines;
    private long nextId = 1;

    private DemoClient(Process server) {
        this.server = server;
        this.toServer = server.getOutputStream();
        this.fromServer = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    }

    /** One session, on a server of its own: an era is the connection's. */
    private interface Session {
        void run(DemoClient client) throws IOException;
    }

    /**
     * Runs two sessions, each against a server that {@code serverCommand} starts: a legacy one
     * (opened by {@code initialize}) and a modern one (2026-07-28, opened by the
     * {@code server/discover} probe that hosts send first).
     */
    public static Report run(List<String> serverCommand) throws IOException, InterruptedException {
        return run(serverCommand, DemoClient::session).then(run(serverCommand, DemoClient::modernSession));
    }

    private static Report run(List<String> serverCommand, Session session) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(serverCommand).start();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "<" + e + ">";
            }
        });
        DemoClient c = new DemoClient(p);
        try {
            session.run(c);
        } catch (IOException e) {
            c.steps.add(new Step("session", "broke off: " + e.getMessage(), false));
        } finally {
            p.getOutputStream().close();
        }
        c.drainRest();
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
            c.steps.add(new Step("exit", "the server did not exit within 60 s of end of input", false));
        }
        String err;
        try {
            err = stderr.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            err = "<" + e + ">";
        }
        return new Report(List.copyOf(c.steps), c.lines, List.copyOf(c.invalid), err, exited ? p.exitValue() : -1);
    }

    private void session() throws IOException {
        ObjectNode init = JSON.objectNode().put("protocolVersion", McpProtocol.LATEST_LEGACY_VERSION);
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", "mcpwire-demo-client").put("version", "0.1.0");
        JsonNode r = call(McpProtocol.INITIALIZE, init);
        check("initialize", r != null && McpProtocol.LATEST_LEGACY_VERSION.equals(text(r, "protocolVersion")),
                r == null ? "no result" : "protocol " + text(r, "protocolVersion") + ", server "
                        + text(r.get("serverInfo"), "name") + " " + text(r.get("serverInfo"), "version"));
        send(new JsonRpcNotification(McpProtocol.INITIALIZED, null));

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

        JsonRpcMessage unknown = exchange(new JsonRpcRequest(RequestId.of(nextId++), "no/such/method", null));
        check("unknown method", unknown instanceof JsonRpcError && ((JsonRpcError) unknown).error().code() == -32601,
                describe(unknown));

        toServer.write("this line is not JSON\n".getBytes(StandardCharsets.UTF_8));
        toServer.flush();
        JsonRpcMessage parse = read();
        check("a line that is not JSON", parse instanceof JsonRpcError && ((JsonRpcError) parse).id() == null
                && ((JsonRpcError) parse).error().code() == -32700, describe(parse));

        JsonRpcMessage pong = exchange(new JsonRpcRequest(RequestId.of(nextId++), McpProtocol.PING, null));
        check("ping after the bad line", pong instanceof JsonRpcResult, describe(pong));
    }

    private void modernSession() throws IOException {
        ObjectNode meta = RequestMeta.of(McpProtocol.LATEST_VERSION, new Implementation("mcpwire-demo-client", "0.1.0")).toJson();
        JsonNode r = call(McpProtocol.SERVER_DISCOVER, JSON.objectNode().set(MetaKeys.META, meta));
        String versions = r == null || !r.path("supportedVersions").isArray() ? "no result"
                : String.join(", ", r.get("supportedVersions").valueStream().map(JsonNode::asString).toList());
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
        JsonRpcMessage refused = exchange(new JsonRpcRequest(RequestId.of(nextId++), McpProtocol.INITIALIZE, init));
        check("modern: initialize refused", refused instanceof JsonRpcError
                && ((JsonRpcError) refused).error().code() == McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, describe(refused));
    }

    private JsonNode callTool(String name, ObjectNode arguments) throws IOException {
        return call(McpProtocol.TOOLS_CALL, JSON.objectNode().put("name", name).set("arguments", arguments));
    }

    private JsonNode call(String method, JsonNode params) throws IOException {
        JsonRpcMessage m = exchange(new JsonRpcRequest(RequestId.of(nextId++), method, params));
        return m instanceof JsonRpcResult ? ((JsonRpcResult) m).result() : null;
    }

    private JsonRpcMessage exchange(JsonRpcRequest request) throws IOException {
        send(request);
        JsonRpcMessage m = read();
        if (m instanceof JsonRpcResponse && !request.id().equals(((JsonRpcResponse) m).id())) {
            invalid.add("a response to " + ((JsonRpcResponse) m).id() + " while waiting for " + request.id());
        }
        return m;
    }

    private void send(JsonRpcMessage m) throws IOException {
        toServer.write(CODEC.encode(m));
        toServer.write('\n');
        toServer.flush();
    }

    /** The next line from the server, which must be one JSON-RPC message. */
    private JsonRpcMessage read() throws IOException {
        String line = fromServer.readLine();
        if (line == null) {
            throw new IOException("the server closed its stdout");
        }
        lines++;
        DecodeResult d = CODEC.decode(line);
        if (!(d instanceof DecodeResult.Decoded)) {
            invalid.add(line.length() > 200 ? line.substring(0, 200) + "..." : line);
            return read(); // stray bytes on the wire: note them and look for the answer after
        }
        return ((DecodeResult.Decoded) d).message();
    }

    private void drainRest() throws IOException {
        String line;
        while ((line = fromServer.readLine()) != null) {
            lines++;
            invalid.add("after the session: " + line);
        }
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
        out.printf("  %-4s %-28s %d lines, %s%n", r.invalidLines().isEmpty() ? "ok" : "FAIL", "server stdout",
                r.stdoutLines(), r.invalidLines().isEmpty() ? "every one valid JSON-RPC: the wire stayed clean"
                        : r.invalidLines().size() + " NOT JSON-RPC: " + r.invalidLines());
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
