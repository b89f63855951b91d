package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import io.mcpwire.platform.test.harness.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim on real Windows descriptors and handles: a child JVM, started with a plain
 * {@code java -p ... -m ...} over pipes, claims its own stdio; the test judges from outside.
 */
@EnabledOnOs(value = OS.WINDOWS, disabledReason = "real C runtime descriptors and Win32 handles exist only on Windows")
class RealWindowsTest {
    private static final String REQUESTS = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\n").collect(Collectors.joining());
    private static final String RESPONSES = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n").collect(Collectors.joining());

    @TempDir
    Path dir;

    private List<String> command(Path report, String... mode) {
        List<String> cmd = new java.util.ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                "--patch-module", "io.mcpwire.platform.windows=" + Path.of("target", "test-classes").toAbsolutePath(),
                "--add-modules", "io.mcpwire.stdio",
                "--add-reads", "io.mcpwire.platform.windows=io.mcpwire.stdio",
                "--add-opens", "java.base/java.io=io.mcpwire.platform.windows", // FileDescriptor's handle, to compare
                "-m", "io.mcpwire.platform.windows/" + WindowsChildSession.class.getName(), report.toString()));
        cmd.addAll(List.of(mode));
        return cmd;
    }

    @Test
    void onPipesOnlyJsonRpcReachesTheClientAndBothLayersAreRestored() throws Exception {
        Path report = dir.resolve("report");
        ChildJvm.Result p = ChildJvm.run(command(report), REQUESTS, false, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        assertTrue(p.stdout().startsWith(RESPONSES), "LF-only JSON-RPC and nothing else during the session\n" + all);
        assertEquals("after the session", p.stdout().substring(RESPONSES.length()).strip(),
                "System.out after the release writes the restored fd 1, not a closed handle\n" + all);
        assertTrue(p.stderr().contains("stray println") && p.stderr().contains("unflushed-write"), all);
        assertTrue(!p.stdout().contains("inherited child stdout") && p.stderr().contains("inherited child stdout"),
                "an inheritIO() child started while claimed writes to the diversion, stderr\n" + all);
        assertTrue(r.stream().anyMatch(l -> l.startsWith("CLOSED FD ERROR") && l.contains("EBADF")),
                "a call on a closed descriptor is an error, and the JVM lives on\n" + all);
        for (String line : List.of("SLOTS BEFORE MATCH", "STARTUP BEFORE MATCH", "CLAIM windows isolated=true stderrIsWire=false",
                "SLOTS DURING MATCH", "STARTUP DURING MATCH", "INHERIT CHILD EXIT 0", "CHILD EXIT 0", "SYSTEM.IN -1", "SERVED 3",
                "RELEASED true", "SLOTS AFTER MATCH", "STARTUP AFTER MATCH", "TABLE UNCHANGED", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }

    @Test
    void underStderrMergedIntoStdoutAnInheritIoChildsOutputDoesNotReachTheClient() throws Exception {
        Path report = dir.resolve("report");
        // One handle value for stdout and stderr, as the JDK passes them with redirectErrorStream(true).
        ChildJvm.Result p = ChildJvm.runWithStderrMerged(command(report), REQUESTS, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        assertTrue(p.stdout().contains(RESPONSES), all);
        String session = p.stdout().substring(0, p.stdout().indexOf(RESPONSES) + RESPONSES.length());
        assertTrue(!session.contains("inherited child stdout") && !session.contains("stray println"),
                "neither the inheritIO() child nor a stray print reaches the client during the session\n" + all);
        for (String line : List.of("CLAIM windows isolated=true stderrIsWire=true", "STARTUP DURING MATCH", "INHERIT CHILD EXIT 0",
                "RELEASED true", "STARTUP AFTER MATCH", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }

    @Test
    void aNativeChildStartedDuringARolledForwardClaimWritesToTheDiversionNotToAClosedHandle() throws Exception {
        Path report = dir.resolve("report");
        ChildJvm.Result p = ChildJvm.run(command(report, "rollforward"), "", false, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        for (String line : List.of("STATE ROLLED_FORWARD", "SLOTS DURING MATCH", "NATIVE CHILD EXIT 0", "RELEASED true", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", p.stdout(), "only the answer on the wire\n" + all);
        assertTrue(p.stderr().contains("inherited child"), "the native child wrote to the diversion\n" + all);
    }
}
