package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import io.mcpwire.platform.test.harness.ChildJvm;
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

    @Test
    void onTheModulePathTheWireStaysClean() throws Exception {
        assertCleanSession(List.of(ChildJvm.java(), "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                "--patch-module", "io.mcpwire.sdkbridge=" + Path.of("target", "test-classes").toAbsolutePath(),
                "-m", "io.mcpwire.sdkbridge/" + NoisyOfficialServer.class.getName()));
    }

    @Test
    void onTheClassPathTheWireStaysClean() throws Exception {
        assertCleanSession(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED",
                "-cp", ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath(),
                NoisyOfficialServer.class.getName()));
    }

    private static void assertCleanSession(List<String> cmd) throws Exception {
        ChildJvm.Result p = ChildJvm.run(cmd, SESSION, false, Duration.ofSeconds(60));
        String all = p.describe();
        List<String> lines = p.stdout().lines().collect(Collectors.toList());
        assertEquals(3, lines.size(), "three answers and nothing else\n" + all);
        for (String line : lines) {
            assertTrue(line.startsWith("{") && line.contains("\"jsonrpc\":\"2.0\""), "only JSON-RPC on the wire\n" + all);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"id\":2") && l.contains("child exit 0")), all);
        assertTrue(p.stderr().contains("noisy: println under the official SDK") && p.stderr().contains("noisy: child stdout")
                && p.stderr().contains("noisy: unflushed"), "the stray output is on stderr\n" + all);
        assertEquals(0, p.exitCode(), all);
    }
}
