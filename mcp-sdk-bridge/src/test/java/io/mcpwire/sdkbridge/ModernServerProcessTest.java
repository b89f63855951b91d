package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import io.mcpwire.platform.test.harness.DyingHost;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official SDK 2.2's modern server over {@link McpwireStdioMcpTransport} as a host runs it, on
 * real pipes: pipelined slow calls are all answered when stdin closes right after them, a 17 MiB
 * call is answered with an error and the next served, and the server ends within 3 s of its host's
 * death while another process still holds its stdin.
 */
class ModernServerProcessTest {
    private static final Duration T = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static List<String> server(String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath(),
                NoisyModernServer.class.getName(), "--no-child"));
        command.addAll(List.of(args));
        return command;
    }

    private static Set<String> answeredIds(String stdout) {
        Set<String> ids = new TreeSet<>();
        for (String line : stdout.split("\n")) {
            if (!line.isBlank()) {
                ids.add(line.replaceAll("^\\{\"jsonrpc\":\"2.0\",\"id\":([^,]*),.*$", "$1"));
            }
        }
        return ids;
    }

    @Test
    void fivePipelinedSlowCallsAreAnsweredWhenStdinClosesRightAfterThem() throws Exception {
        StringBuilder input = new StringBuilder();
        for (int id = 1; id <= 5; id++) {
            input.append(ModernTransportTest.call(id, "slow", "{}")).append('\n');
        }
        ChildJvm.Result r = ChildJvm.run(server(), input.toString(), false, T);
        assertEquals(Set.of("1", "2", "3", "4", "5"), answeredIds(r.stdout()), r.stdout() + r.stderr());
        assertTrue(r.stdout().lines().allMatch(l -> l.contains("slept")), r.stdout());
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @Test
    void aSeventeenMebibyteCallIsAnsweredWithItsIdAndTheNextIsServed() throws Exception {
        String input = ModernTransportTest.call(1, "echo", "{\"text\":\"" + "x".repeat(17 * 1024 * 1024) + "\"}") + "\n"
                + ModernTransportTest.call(2, "echo", "{\"text\":\"next\"}") + "\n";
        ChildJvm.Result r = ChildJvm.run(server(), input, false, T);
        List<String> lines = r.stdout().lines().toList();
        assertEquals(2, lines.size(), r.stdout() + r.stderr());
        assertTrue(lines.get(0).startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"), lines.get(0));
        assertTrue(lines.get(1).contains("\"id\":2") && lines.get(1).contains("next"), lines.get(1));
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void itEndsWithinThreeSecondsOfItsHostsDeathWhileAnotherProcessHoldsItsStdin() throws Exception {
        DyingHost.Outcome o = DyingHost.run(server(), ModernTransportTest.request(1, "server/discover", ""), dir, Duration.ofSeconds(15));
        assertTrue(o.helperHeld(), "the helper still held the server's stdin open");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
        assertTrue(o.stdout().contains("\"id\":1") && o.stdout().contains("2026-07-28"), "answered before: " + o.stdout());
    }
}
