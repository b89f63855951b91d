package io.mcpwire.test;

import io.mcpwire.check.CheckedServer;
import io.mcpwire.check.Report;
import io.mcpwire.check.WireCheck;
import io.mcpwire.platform.test.harness.ChildJvm;
import io.mcpwire.protocol.ProtocolEra;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs an MCP stdio server for each test and hands the test an {@link McpTestClient} parameter.
 * Register it with {@code @RegisterExtension}:
 *
 * <pre>{@code
 * @RegisterExtension
 * static McpServerExtension server = McpServerExtension.inProcess(MyServer::serve);
 *
 * @Test
 * void echoes(McpTestClient client) {
 *     client.initialize();
 *     assertEquals("hi", client.callToolText("echo", "{\"text\":\"hi\"}"));
 * }
 * }</pre>
 *
 * <p>After each test it ends the session as a host does (end of input, then the wait for the
 * server to end) and fails the test when anything on the server's stdout was not JSON-RPC, a
 * request went unanswered or was answered twice, or the server did not end cleanly; in process,
 * also when the descriptor table was not restored. A test that ends the session itself
 * ({@link McpTestClient#endSession()}, {@link McpTestClient#check}) judges the report itself.
 *
 * <p>Two ways to run the server:
 * <ul>
 *   <li>{@link #inProcess}: in the test JVM over a fresh fake descriptor table, with claims
 *       choosing the fake and {@code System.in/out/err} following its descriptors. Quick, and a
 *       print in a tool is caught as it would be on real descriptors. A child process the server
 *       starts with inherited stdio gets the test JVM's real descriptors, not the fake's: test
 *       that in a child JVM.</li>
 *   <li>{@link #module}, {@link #mainClass}, {@link #command}: as a child process on real pipes,
 *       the way a host starts it.</li>
 * </ul>
 */
public final class McpServerExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(McpServerExtension.class);
    private static final String KEY = "server";

    /** How each way starts its server. */
    private sealed interface Start {
        CheckedServer start(ExtensionContext test) throws IOException, InterruptedException;
    }

    private record InProcess(ServerMain main) implements Start {
        @Override
        public CheckedServer start(ExtensionContext test) throws InterruptedException {
            return InProcessServer.start("for " + test.getRequiredTestClass().getSimpleName() + "."
                    + test.getRequiredTestMethod().getName(), main);
        }
    }

    private record Child(List<String> command) implements Start {
        @Override
        public CheckedServer start(ExtensionContext test) throws IOException {
            return CheckedServer.start(command);
        }
    }

    /** The server and its client for one test. */
    private record Running(CheckedServer server, McpTestClient client) {
    }

    private final Start start;
    private final Duration timeout;
    private final Duration exitGrace;
    private final Optional<ProtocolEra> era;

    private McpServerExtension(Start start, Duration timeout, Duration exitGrace, Optional<ProtocolEra> era) {
        this.start = start;
        this.timeout = timeout;
        this.exitGrace = exitGrace;
        this.era = era;
    }

    /** Runs {@code main} in the test JVM over a fresh fake descriptor table for each test. */
    public static McpServerExtension inProcess(ServerMain main) {
        return new McpServerExtension(new InProcess(main), Duration.ofSeconds(10), WireCheck.EXIT_GRACE, Optional.empty());
    }

    /**
     * Runs {@code java -p PATH -m MODULE/CLASS ARGS} in a child JVM, {@code PATH} being the test
     * JVM's module path and class path without the test framework ({@link ChildJvm#path()}), with
     * native access enabled for the platform providers found on it.
     *
     * @param moduleAndClass for example {@code com.example.server/com.example.server.Main}
     */
    public static McpServerExtension module(String moduleAndClass, String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        command.addAll(ChildJvm.conventions());
        nativeAccessModules().ifPresent(modules -> command.add("--enable-native-access=" + modules));
        command.addAll(List.of("-p", ChildJvm.path(), "-m", moduleAndClass));
        command.addAll(List.of(args));
        return command(command);
    }

    /** Runs {@code java -cp PATH CLASS ARGS} in a child JVM ({@link #module} for {@code PATH}). */
    public static McpServerExtension mainClass(String className, String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        command.addAll(ChildJvm.conventions());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", ChildJvm.path(), className));
        command.addAll(List.of(args));
        return command(command);
    }

    /** Runs any command line as the server: a server in any language. */
    public static McpServerExtension command(List<String> command) {
        return new McpServerExtension(new Child(List.copyOf(command)), Duration.ofSeconds(10), WireCheck.EXIT_GRACE, Optional.empty());
    }

    /** How long each answer may take (default 10 s); the server may take {@link #exitGrace} more to end. */
    public McpServerExtension timeout(Duration answerTimeout) {
        if (answerTimeout.isNegative() || answerTimeout.isZero()) {
            throw new IllegalArgumentException("the answer timeout must be positive, not " + answerTimeout);
        }
        return new McpServerExtension(start, answerTimeout, exitGrace, era);
    }

    /**
     * How much longer than an answer's timeout the server may take to end after end of input
     * (default 5 s, {@link WireCheck#EXIT_GRACE}): a server whose shutdown is slow on purpose asks for more.
     */
    public McpServerExtension exitGrace(Duration grace) {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("the exit grace must not be negative, not " + grace);
        }
        return new McpServerExtension(start, timeout, grace, era);
    }

    /**
     * Pins the era each test's client speaks: {@link McpTestClient#open()} opens it and
     * {@link McpTestClient#check} checks in it, with no probe. Unpinned, both probe as a dual-era host does.
     */
    public McpServerExtension era(ProtocolEra pinned) {
        return new McpServerExtension(start, timeout, exitGrace, Optional.of(pinned));
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        CheckedServer server = start.start(context);
        context.getStore(NAMESPACE).put(KEY, new Running(server, new McpTestClient(server, timeout, exitGrace, era)));
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Running running = context.getStore(NAMESPACE).remove(KEY, Running.class);
        if (running == null) {
            return;
        }
        try {
            if (!running.client().ended() && context.getExecutionException().isEmpty()) {
                Report report = running.client().endSession();
                if (!report.clean()) {
                    throw new AssertionError("the server's session was not clean:\n"
                            + McpTestClient.describe(report.findings())
                            + (report.stderrHead().isEmpty() ? "" : "\nstderr:\n  " + String.join("\n  ", report.stderrHead())));
                }
            }
            if (running.server() instanceof InProcessServer s && context.getExecutionException().isEmpty()) {
                Optional<String> problem = s.tableProblem();
                if (problem.isPresent()) {
                    throw new AssertionError(problem.get());
                }
            }
        } finally {
            running.server().kill();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == McpTestClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = context.getStore(NAMESPACE).get(KEY, Running.class);
        if (running == null) {
            throw new IllegalStateException("no server runs for this test: register the extension on a field "
                    + "with @RegisterExtension, not on a @BeforeAll method");
        }
        return running.client();
    }

    /** The modules among the child's path that call native code, for {@code --enable-native-access}. */
    private static Optional<String> nativeAccessModules() {
        List<String> modules = new ArrayList<>();
        for (String entry : ChildJvm.pathEntries()) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("jna-") && !modules.contains("com.sun.jna")) {
                modules.add("com.sun.jna");
            }
            if ((name.startsWith("mcpwire-platform-ffm") || entry.contains("platform-ffm"))
                    && Runtime.version().feature() >= 22 && !modules.contains("io.mcpwire.platform.ffm")) {
                modules.add("io.mcpwire.platform.ffm");
            }
        }
        return modules.isEmpty() ? Optional.empty() : Optional.of(String.join(",", modules));
    }
}
