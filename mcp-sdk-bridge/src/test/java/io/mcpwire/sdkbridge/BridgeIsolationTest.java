package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The bridge's isolation on real descriptors: an official-SDK server whose tool prints to stdout
 * and starts an {@code inheritIO()} child, in a child JVM, on the module path and on the class
 * path; its stdout must carry nothing but JSON-RPC.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
class BridgeIsolationTest {
    private static final String SESSION = String.join("\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"noisy\",\"arguments\":{}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}") + "\n";

    private static List<String> path() {
        String all = System.getProperty("jdk.module.path", "") + File.pathSeparator + System.getProperty("java.class.path", "");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> !e.isBlank() && !e.endsWith("test-classes"))
                .filter(e -> {
                    String n = Path.of(e).getFileName().toString();
                    return !(n.startsWith("junit") || n.startsWith("opentest4j") || n.startsWith("apiguardian")
                            || n.startsWith("surefire") || n.startsWith("common-") || n.startsWith("jspecify"));
                })
                .distinct().collect(Collectors.toList());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    void onTheModulePathTheWireStaysClean() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "--enable-native-access=com.sun.jna",
                "-p", String.join(File.pathSeparator, path()),
                "--patch-module", "io.mcpwire.sdkbridge=" + Path.of("target", "test-classes").toAbsolutePath(),
                "-m", "io.mcpwire.sdkbridge/" + NoisyOfficialServer.class.getName()));
        assertCleanSession(cmd);
    }

    @Test
    void onTheClassPathTheWireStaysClean() throws Exception {
        List<String> entries = new ArrayList<>(path());
        entries.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        List<String> cmd = List.of(java(), "--enable-native-access=ALL-UNNAMED", "-cp", String.join(File.pathSeparator, entries),
                NoisyOfficialServer.class.getName());
        assertCleanSession(cmd);
    }

    private static void assertCleanSession(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (Exception e) {
                return e.toString();
            }
        });
        p.getOutputStream().write(SESSION.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the server exits at end of input");
        String stderr = err.get(10, TimeUnit.SECONDS);
        String all = "stdout:\n" + out + "\nstderr:\n" + stderr;
        List<String> lines = out.lines().collect(Collectors.toList());
        assertEquals(3, lines.size(), "three answers and nothing else\n" + all);
        for (String line : lines) {
            assertTrue(line.startsWith("{") && line.contains("\"jsonrpc\":\"2.0\""), "only JSON-RPC on the wire\n" + all);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"id\":2") && l.contains("child exit 0")), all);
        assertTrue(stderr.contains("noisy: println under the official SDK") && stderr.contains("noisy: child stdout")
                && stderr.contains("noisy: unflushed"), "the stray output is on stderr\n" + all);
        assertEquals(0, p.exitValue(), all);
    }
}
