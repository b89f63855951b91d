package io.mcpwire.test;

import io.mcpwire.check.CheckedServer;
import io.mcpwire.check.ServerWire;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Semaphore;

/**
 * A server run inside the test JVM over a {@link FakeProcess}: claims choose the fake
 * ({@code mcpwire.platform=fake}), and {@code System.in}, {@code System.out} and
 * {@code System.err} follow its descriptors ({@link FakeJvm}). The server has ended when its
 * main has returned and the descriptor table is as it was before it started (every claim
 * released); then the fake process exits, so the client reads end of output. The server's
 * claims leave the processes it starts running ({@code mcpwire.children=leave}): in process, the
 * JVM's children are the test run's, other tests' servers among them.
 */
final class InProcessServer implements CheckedServer {
    private static final String PLATFORM_PROPERTY = "mcpwire.platform";
    private static final String CHILDREN_PROPERTY = "mcpwire.children";
    /**
     * One at a time: the JVM's standard streams, the chosen platform and the claim are the JVM's
     * own, so in-process servers of tests run in parallel take turns.
     */
    private static final Semaphore ONE_AT_A_TIME = new Semaphore(1, true);
    /** The thread that started the server whose turn it is: a second start from it would wait for itself. */
    private static volatile Thread turnHolder;

    private final String name;
    private final FakeProcess fake = FakeProcess.withPipes();
    private final TableSnapshot before = fake.snapshot();
    private final String previousPlatform;
    private final String previousChildren;
    private final FakeJvm jvm;
    private final ServerWire wire;
    private final Thread main;
    private volatile Throwable failure;
    private Optional<String> tableProblem = Optional.empty();
    private boolean stopped;

    private InProcessServer(String name, ServerMain server) {
        this.name = name;
        bindConsoleLogging();
        FakeProcess.setShared(fake);
        previousPlatform = System.setProperty(PLATFORM_PROPERTY, "fake");
        previousChildren = System.setProperty(CHILDREN_PROPERTY, "leave");
        jvm = FakeJvm.install(fake);
        wire = new ServerWire(fake.client().toServer(), fake.client().fromServer());
        main = new Thread(() -> {
            try {
                server.run();
            } catch (Throwable t) {
                failure = t;
            }
        }, "mcp-server-main");
        main.setDaemon(true); // a server that never ends must not keep the test JVM alive
    }

    /**
     * Makes the JDK's console log handler now, while {@code System.err} is still the test's: one
     * made while the fake's streams are installed would keep writing the fake's fd 2 after it.
     */
    private static void bindConsoleLogging() {
        try {
            java.util.logging.Logger.getLogger("").getHandlers();
        } catch (NoClassDefFoundError noJavaLogging) {
            // java.logging is not in the module graph: System.Logger then finds System.err per record
        }
    }

    static InProcessServer start(String name, ServerMain server) throws InterruptedException {
        if (turnHolder == Thread.currentThread()) {
            throw new IllegalStateException("an in-process server already runs for this test, " + name
                    + " would wait for it to end, for ever: register one McpServerExtension.inProcess per test "
                    + "(an outer class's extension also runs for its @Nested classes' tests)");
        }
        ONE_AT_A_TIME.acquire();
        turnHolder = Thread.currentThread();
        try {
            InProcessServer s = new InProcessServer(name, server);
            s.main.start();
            return s;
        } catch (RuntimeException | Error e) {
            turnHolder = null;
            ONE_AT_A_TIME.release();
            throw e;
        }
    }

    /** The fake descriptor table the server runs on. */
    FakeProcess fake() {
        return fake;
    }

    @Override
    public List<String> command() {
        return List.of("in-process", name);
    }

    @Override
    public ServerWire wire() {
        return wire;
    }

    /**
     * Waits for main to return and the table to be restored, then ends the fake process. Status 0
     * when main returned, 1 when it threw (the throwable goes to {@link #stderr()}).
     */
    @Override
    public synchronized OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        main.join(Math.max(1, timeout.toMillis()));
        if (main.isAlive()) {
            kill();
            return OptionalInt.empty();
        }
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        if (!jvm.awaitTable(before, left)) {
            tableProblem = Optional.of("the descriptor table was not restored when the server ended: "
                    + before.differenceFrom(fake.snapshot()));
        }
        fake.wireViolations().stream().findFirst().ifPresent(v -> tableProblem = Optional.of(v));
        kill();
        wire.awaitEndOfOutput(Duration.ofSeconds(2)); // the last bytes, now that every descriptor is closed
        return OptionalInt.of(failure == null ? 0 : 1);
    }

    /** What was wrong with the descriptor table at the end: not restored, or the wire lost on the way. */
    synchronized Optional<String> tableProblem() {
        return tableProblem;
    }

    @Override
    public String stderr() {
        Throwable t = failure;
        if (t == null) {
            return fake.stderrText();
        }
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        return fake.stderrText() + trace;
    }

    /** Ends the fake process and gives the test JVM back its streams and platform. Idempotent. */
    @Override
    public synchronized void kill() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (main.isAlive()) {
            main.interrupt();
        }
        jvm.exit();
        restore(PLATFORM_PROPERTY, previousPlatform);
        restore(CHILDREN_PROPERTY, previousChildren);
        FakeProcess.setShared(null);
        turnHolder = null;
        ONE_AT_A_TIME.release();
    }

    private static void restore(String property, String previous) {
        if (previous == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, previous);
        }
    }
}
