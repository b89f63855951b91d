package io.mcpwire.platform.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim on real descriptors: a child JVM claims its own fd 0 and fd 1 through the engine and
 * this provider, and the test judges it from outside (this JVM must not divert its own stdio:
 * surefire talks over it).
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the POSIX provider runs on Linux and macOS")
class RealDescriptorsTest {
    private static final String REQUESTS = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\n")
            .collect(Collectors.joining());
    private static final String RESPONSES = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n")
            .collect(Collectors.joining());

    @TempDir
    Path dir;

    private static void assertCleanRelease(ChildSessions.Result r) {
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.reported("TABLE UNCHANGED"), r::describe);
        assertTrue(r.reported("WIRE RESTORED"), r::describe);
        assertTrue(r.reported("THREADS NONE LEFT"), r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    private static void assertIsolatedSession(ChildSessions.Result r, String fd1Kind) {
        assertEquals(RESPONSES, r.stdout(), () -> "the client's stdout carries only JSON-RPC\n" + r.describe());
        assertTrue(r.reported("CLAIM posix isolated=true"), r::describe);
        assertTrue(r.reported("FD1 " + fd1Kind), r::describe);
        assertTrue(r.reported("CHILD EXIT 0"), r::describe);
        assertTrue(r.reported("SYSTEM.IN -1"), () -> "System.in reads the null device\n" + r.describe());
        assertTrue(r.reported("SERVED 3"), r::describe);
        assertTrue(r.reported("RELEASED true"), r::describe);
        assertCleanRelease(r);
    }

    @Test
    void onPipesOnlyJsonRpcReachesTheClientAndStrayOutputGoesToStderr() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(ChildSessions.command("session", report), report, REQUESTS, false);
        assertIsolatedSession(r, "PIPE");
        assertTrue(r.reported("WIRE KINDS PIPE PIPE"), r::describe);
        for (String stray : List.of("stray println", "stray stderr", "unflushed-write", "child stdout", "child saw eof")) {
            assertTrue(r.stderr().contains(stray), () -> "'" + stray + "' on stderr\n" + r.describe());
        }
        assertTrue(copies(r).stream().allMatch(fd -> fd > 2), r::describe);
    }

    @Test
    void onUnixSocketsAsNodeClientsGiveTheSessionIsTheSame() throws Exception {
        Path report = dir.resolve("report");
        Path relay = dir.resolve("socket-relay.py");
        try (var in = RealDescriptorsTest.class.getResourceAsStream("/socket-relay.py")) {
            Files.write(relay, in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>(List.of("python3", relay.toString()));
        cmd.addAll(ChildSessions.command("session", report));
        ChildSessions.Result r = ChildSessions.run(cmd, report, REQUESTS, false);
        assertIsolatedSession(r, "PIPE"); // fd 1 diverts to stderr, which is still a pipe here
        assertTrue(r.reported("WIRE KINDS SOCKET SOCKET"), r::describe);
        assertTrue(r.stderr().contains("stray println") && r.stderr().contains("child saw eof"), r::describe);
    }

    @Test
    void withStderrClosedTheClaimEngagesAndStdoutDivertsToTheNullDevice() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(withStderr("2>&-", ChildSessions.command("session", report)), report, REQUESTS, false);
        // The JVM puts its module image on the freed fd 2: read-only, so no place for stray output.
        assertIsolatedSession(r, "NULL_DEVICE");
        assertFalse(copies(r).contains(2), () -> "no private duplicate on fd 2\n" + r.describe());
    }

    @Test
    void whenStderrIsTheWireStdoutDivertsToTheNullDeviceAndStrayOutputNeverReachesTheWire() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(withStderr("2>&1", ChildSessions.command("session", report)), report, REQUESTS, false);
        assertIsolatedSession(r, "NULL_DEVICE");
    }

    @Test
    void withStdinClosedAtStartTheJvmsModuleImageIsNeverReadNorMoved() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(withStderr("<&-", ChildSessions.command("absent", report)), report, "", false);
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.reported("STATES ABSENT DIVERTED"), r::describe);
        assertTrue(r.reported("LOADED CLASSES AFTER THE CLAIM"), r::describe);
        assertTrue(r.reported("READ -1"), () -> "end of input, not the module image\n" + r.describe());
        assertEquals(RESPONSES.lines().findFirst().orElseThrow() + "\n", r.stdout(), r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    @Test
    void withStdoutClosedAtStartWritesFailSayingSoAndTheJvmKeepsRunning() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(withStderr(">&-", ChildSessions.command("absent", report)), report,
                REQUESTS, false);
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.reported("STATES DIVERTED ABSENT"), r::describe);
        assertTrue(r.reported("LOADED CLASSES AFTER THE CLAIM"), r::describe);
        assertTrue(r.report().stream().anyMatch(l -> l.startsWith("WRITE FAILED") && l.contains("fd 1 was closed when the process started")),
                r::describe);
        assertTrue(r.reported("DONE"), r::describe);
    }

    @Test
    void closeWakesAReaderBlockedOnAnIdleWire() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(ChildSessions.command("idle", report), report, "", true);
        assertTrue(r.reported("READER ENDED AsynchronousCloseException"), r::describe);
        assertTrue(r.reported("READER ALIVE false"), r::describe);
        assertTrue(r.reported("RELEASED true"), r::describe);
        assertCleanRelease(r);
    }

    @Test
    void aThousandClaimCyclesLeakNoDescriptorAndNoThread() throws Exception {
        Path report = dir.resolve("report");
        ChildSessions.Result r = ChildSessions.run(ChildSessions.command("cycles", report), report, "", false);
        assertEquals(1000, r.stdout().lines().count(), r::describe);
        assertTrue(r.stdout().lines().allMatch(l -> l.startsWith("{\"jsonrpc\":\"2.0\",\"method\":\"cycle\"")), r::describe);
        assertTrue(r.reported("CYCLES 1000"), r::describe);
        assertCleanRelease(r);
    }

    @Test
    void aProcessThatNeverClaimsNeverLoadsJna() throws Exception {
        Path report = dir.resolve("report");
        Path classLog = dir.resolve("classes.log");
        List<String> cmd = new ArrayList<>(ChildSessions.command("lazy", report));
        cmd.add(1, "-Xlog:class+load=info:file=" + classLog);
        ChildSessions.Result r = ChildSessions.run(cmd, report, "", false);
        assertTrue(r.reported("FOUND posix priority 100"), r::describe);
        String loaded = Files.readString(classLog);
        assertTrue(loaded.contains("io.mcpwire.platform.posix.PosixDescriptors"), "the provider was loaded");
        assertFalse(loaded.contains("com.sun.jna."), "no JNA class was loaded");
    }

    /** The command run by a shell that first redirects ({@code 2>&-}, {@code 2>&1}, {@code <&-}). */
    private static List<String> withStderr(String redirect, List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "exec \"$@\" " + redirect, "sh"));
        cmd.addAll(command);
        return cmd;
    }

    private static List<Integer> copies(ChildSessions.Result r) {
        return r.report().stream().filter(l -> l.startsWith("WIRE COPIES"))
                .flatMap(l -> Arrays.stream(l.substring("WIRE COPIES".length()).trim().split(" ")))
                .filter(s -> !s.isEmpty()).map(Integer::valueOf).collect(Collectors.toList());
    }
}
