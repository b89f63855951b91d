package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import io.mcpwire.platform.test.ChildJvm;
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

    @Test
    void onPipesOnlyJsonRpcReachesTheClientAndBothLayersAreRestored() throws Exception {
        Path report = dir.resolve("report");
        List<String> cmd = List.of(ChildJvm.java(), "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                "--patch-module", "io.mcpwire.platform.windows=" + Path.of("target", "test-classes").toAbsolutePath(),
                "--add-modules", "io.mcpwire.stdio",
                "--add-reads", "io.mcpwire.platform.windows=io.mcpwire.stdio",
                "-m", "io.mcpwire.platform.windows/" + WindowsChildSession.class.getName(), report.toString());
        ChildJvm.Result p = ChildJvm.run(cmd, REQUESTS, false, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        assertEquals(RESPONSES, p.stdout(), "LF-only JSON-RPC and nothing else on the client's stdout\n" + all);
        assertTrue(p.stderr().contains("stray println") && p.stderr().contains("unflushed-write"), all);
        for (String line : List.of("SLOTS BEFORE MATCH", "CLAIM windows isolated=true", "SLOTS DURING MATCH",
                "CHILD EXIT 0", "SYSTEM.IN -1", "SERVED 3", "RELEASED true", "SLOTS AFTER MATCH", "TABLE UNCHANGED", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }
}
