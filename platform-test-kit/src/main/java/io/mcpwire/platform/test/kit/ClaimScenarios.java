package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim on real descriptors, as a JUnit 5 suite that any POSIX provider runs: a child JVM
 * ({@link ScenarioChild}, started with a plain {@code java -p ... -m ...}) claims its own fd 0 and
 * fd 1 through the engine and the provider, and the test judges it from outside, since a test JVM
 * must not divert its own standard streams (the test runner talks over them). The scenarios:
 * pipes, Unix socket pairs (as Node clients give), {@code 2>&-}, {@code 2>&1}, stdin or stdout
 * closed at start, an {@code inheritIO()} child, a reader blocked on the idle wire woken by the
 * release, and 1,000 claim cycles with the descriptor table unchanged.
 *
 * <pre>{@code
 * class MyProviderScenariosTest extends ClaimScenarios {
 *     protected String providerName() { return "mine"; }
 *     protected List<String> jvmOptions() { return List.of("--enable-native-access=my.provider"); }
 *     protected String blockedFrame() { return "my.provider.Binding#poll"; }
 * }
 * }</pre>
 *
 * <p>The child runs on this JVM's module path and class path without the test framework
 * ({@link ChildJvm#path()}), so the provider, {@code io.mcpwire.stdio} and this kit must be among
 * the test's dependencies, as jars (run it from {@code mvn verify}, not {@code mvn test}).
 */
@EnabledOnPosix // the scenarios use a POSIX shell, /dev/fd and python3; inherited by every subclass
public abstract class ClaimScenarios {
    private static final String REQUESTS = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\n")
            .collect(Collectors.joining());
    private static final String RESPONSES = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n")
            .collect(Collectors.joining());

    @TempDir
    Path dir;

    /** For subclasses. */
    protected ClaimScenarios() {
    }

    /** The provider's name, as {@code -Dmcpwire.platform} takes it. */
    protected abstract String providerName();

    /** JVM options the child needs for the provider, such as {@code --enable-native-access=...}. */
    protected abstract List<String> jvmOptions();

    /**
     * The Java method that makes the provider's read wait, as {@code class#method}: a thread is
     * blocked in it when that method is its innermost frame (a foreign-function binding, whose stub
     * is hidden) or the caller of its innermost, native frame (a JNA {@code Function}).
     */
    protected abstract String blockedFrame();

    /** What a finished child left behind: its output, and the lines of its report file. */
    private record Result(ChildJvm.Result process, List<String> report) {
        boolean reported(String line) {
            return report.contains(line);
        }

        String describe() {
            return "report:\n  " + String.join("\n  ", report) + "\n" + process.describe();
        }
    }

    private List<String> child(String mode, Path report) {
        String[] frame = blockedFrame().split("#", 2);
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.java()));
        cmd.addAll(ChildJvm.conventions());
        cmd.addAll(jvmOptions());
        cmd.addAll(List.of("-Dmcpwire.platform=" + providerName(), "-p", ChildJvm.path(), "--add-modules", "ALL-MODULE-PATH",
                "-m", "io.mcpwire.platform.test.kit/" + ScenarioChild.class.getName(), mode, report.toString(), frame[0], frame[1]));
        return cmd;
    }

    private Result run(List<String> command, Path report, String input, boolean keepStdinOpen) throws Exception {
        Files.deleteIfExists(report);
        ChildJvm.Result r = ChildJvm.run(command, input, keepStdinOpen, Duration.ofSeconds(120));
        return new Result(r, Files.exists(report) ? Files.readAllLines(report) : List.of());
    }

    private Result run(String mode, String shellRedirect, String input) throws Exception {
        Path report = dir.resolve("report");
        List<String> cmd = new ArrayList<>();
        if (!shellRedirect.isEmpty()) {
            cmd.addAll(List.of("sh", "-c", "exec \"$@\" " + shellRedirect, "sh"));
        }
        cmd.addAll(child(mode, report));
        return run(cmd, report, input, false);
    }

    private static void assertCleanRelease(Result r) {
        assertEquals(0, r.process().exitCode(), r::describe);
        assertTrue(r.reported("TABLE UNCHANGED"), r::describe);
        assertTrue(r.reported("WIRE RESTORED"), r::describe);
        assertTrue(r.reported("THREADS NONE LEFT"), r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    private void assertIsolatedSession(Result r, String fd1Kind) {
        assertEquals(RESPONSES, r.process().stdout(), () -> "the client's stdout carries only JSON-RPC\n" + r.describe());
        assertTrue(r.reported("CLAIM " + providerName() + " isolated=true"), r::describe);
        assertTrue(r.reported("FD1 " + fd1Kind), r::describe);
        assertTrue(r.reported("CHILD EXIT 0"), r::describe);
        assertTrue(r.reported("SYSTEM.IN -1"), () -> "System.in reads the null device\n" + r.describe());
        assertTrue(r.reported("SERVED 3"), r::describe);
        assertTrue(r.reported("RELEASED true"), r::describe);
        assertCleanRelease(r);
    }

    @Test
    void onPipesOnlyJsonRpcReachesTheClientAndStrayOutputGoesToStderr() throws Exception {
        Result r = run("session", "", REQUESTS);
        assertIsolatedSession(r, "PIPE");
        assertTrue(r.reported("WIRE KINDS PIPE PIPE"), r::describe);
        for (String stray : List.of("stray println", "stray stderr", "unflushed-write", "child stdout", "child saw eof")) {
            assertTrue(r.process().stderr().contains(stray), () -> "'" + stray + "' on stderr\n" + r.describe());
        }
        assertTrue(copies(r).stream().allMatch(fd -> fd > 2), r::describe);
    }

    @Test
    void onUnixSocketsAsNodeClientsGiveTheSessionIsTheSame() throws Exception {
        Path report = dir.resolve("report");
        Path relay = dir.resolve("socket-relay.py");
        try (InputStream in = ClaimScenarios.class.getResourceAsStream("socket-relay.py")) {
            Files.write(relay, in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>(List.of("python3", relay.toString()));
        cmd.addAll(child("session", report));
        Result r = run(cmd, report, REQUESTS, false);
        assertIsolatedSession(r, "PIPE"); // fd 1 diverts to stderr, which is still a pipe here
        assertTrue(r.reported("WIRE KINDS SOCKET SOCKET"), r::describe);
        assertTrue(r.process().stderr().contains("stray println") && r.process().stderr().contains("child saw eof"), r::describe);
    }

    @Test
    void withStderrClosedTheClaimEngagesAndStdoutDivertsToTheNullDevice() throws Exception {
        Result r = run("session", "2>&-", REQUESTS);
        // The JVM puts its module image on the freed fd 2: read-only, so no place for stray output.
        assertIsolatedSession(r, "NULL_DEVICE");
        assertFalse(copies(r).contains(2), () -> "no private duplicate on fd 2\n" + r.describe());
    }

    @Test
    void whenStderrIsTheWireStdoutDivertsToTheNullDeviceAndStrayOutputNeverReachesTheWire() throws Exception {
        assertIsolatedSession(run("session", "2>&1", REQUESTS), "NULL_DEVICE");
    }

    @Test
    void withStdinClosedAtStartTheJvmsModuleImageIsNeverReadNorMoved() throws Exception {
        Result r = run("absent", "<&-", "");
        assertEquals(0, r.process().exitCode(), r::describe);
        assertTrue(r.reported("STATES ABSENT DIVERTED"), r::describe);
        assertTrue(r.reported("LOADED CLASSES AFTER THE CLAIM"), r::describe);
        assertTrue(r.reported("READ -1"), () -> "end of input, not the module image\n" + r.describe());
        assertEquals(RESPONSES.lines().findFirst().orElseThrow() + "\n", r.process().stdout(), r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    @Test
    void withStdoutClosedAtStartWritesFailSayingSoAndTheJvmKeepsRunning() throws Exception {
        Result r = run("absent", ">&-", REQUESTS);
        assertEquals(0, r.process().exitCode(), r::describe);
        assertTrue(r.reported("STATES DIVERTED ABSENT"), r::describe);
        assertTrue(r.reported("LOADED CLASSES AFTER THE CLAIM"), r::describe);
        assertTrue(r.report().stream().anyMatch(l -> l.startsWith("WRITE FAILED") && l.contains("fd 1 was closed when the process started")),
                r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    @Test
    void theReleaseWakesAReaderBlockedOnAnIdleWire() throws Exception {
        Path report = dir.resolve("report");
        Result r = run(child("idle", report), report, "", true);
        assertTrue(r.reported("READER ENDED AsynchronousCloseException"), r::describe);
        assertTrue(r.reported("READER ALIVE false"), r::describe);
        assertTrue(r.reported("RELEASED true"), r::describe);
        assertCleanRelease(r);
    }

    @Test
    void aThousandClaimCyclesLeaveTheDescriptorTableAsItWas() throws Exception {
        Result r = run("cycles", "", "");
        assertEquals(1000, r.process().stdout().lines().count(), r::describe);
        assertTrue(r.process().stdout().lines().allMatch(l -> l.startsWith("{\"jsonrpc\":\"2.0\",\"method\":\"cycle\"")), r::describe);
        assertTrue(r.reported("CYCLES 1000"), r::describe);
        assertCleanRelease(r);
    }

    private static List<Integer> copies(Result r) {
        return r.report().stream().filter(l -> l.startsWith("WIRE COPIES"))
                .flatMap(l -> Arrays.stream(l.substring("WIRE COPIES".length()).trim().split(" ")))
                .filter(s -> !s.isEmpty()).map(Integer::valueOf).collect(Collectors.toList());
    }
}
