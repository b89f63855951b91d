package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=com.sun.jna", "-p", modulePath(),
                "--patch-module", "io.mcpwire.platform.windows=" + Path.of("target", "test-classes").toAbsolutePath(),
                "--add-modules", "io.mcpwire.stdio",
                "--add-reads", "io.mcpwire.platform.windows=io.mcpwire.stdio",
                "-m", "io.mcpwire.platform.windows/" + WindowsChildSession.class.getName(), report.toString()));
        Process p = new ProcessBuilder(cmd).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (Exception e) {
                return e.toString();
            }
        });
        p.getOutputStream().write(REQUESTS.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child exited");
        String stderr = err.get(30, TimeUnit.SECONDS);
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;

        assertEquals(0, p.exitValue(), all);
        assertEquals(RESPONSES, stdout, "LF-only JSON-RPC and nothing else on the client's stdout\n" + all);
        assertTrue(stderr.contains("stray println") && stderr.contains("unflushed-write"), all);
        for (String line : List.of("SLOTS BEFORE MATCH", "CLAIM windows isolated=true", "SLOTS DURING MATCH",
                "CHILD EXIT 0", "SYSTEM.IN -1", "SERVED 3", "RELEASED true", "SLOTS AFTER MATCH", "TABLE UNCHANGED", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }

    private static String modulePath() {
        String all = System.getProperty("jdk.module.path", "") + File.pathSeparator + System.getProperty("java.class.path", "");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .filter(e -> {
                    String name = Path.of(e).getFileName().toString();
                    return e.endsWith(File.separator + "target" + File.separator + "classes")
                            || name.startsWith("jna") || name.startsWith("jackson")
                            || name.startsWith("mcp-") || name.startsWith("platform-");
                })
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }
}
