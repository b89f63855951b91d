package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Dialect;
import io.mcpwire.check.Finding;
import io.mcpwire.check.Options;
import io.mcpwire.check.Report;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.platform.test.harness.ChildJvm;
import io.mcpwire.protocol.McpErrorCodes;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.test.McpServerExtension;
import io.mcpwire.test.McpTestClient;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official SDK 2.2's 2026-07-28 server whose tool prints, under mcpwire-test's checks: on the
 * SDK's own {@code StdioMcpTransport} the print is caught, in process and as a child process; over
 * {@link McpwireStdioMcpTransport} the wire is clean both ways; and the dual-era server serves a
 * legacy host and a modern one from one process.
 */
class ModernServerWireTest {
    private static final Options.ToolCall NOISY = new Options.ToolCall("noisy", "{}");
    private static final List<String> TOOLS = List.of("echo", "noisy", "slow", "progress");

    private static McpServerExtension child(String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath(),
                NoisyModernServer.class.getName()));
        command.addAll(List.of(args));
        return McpServerExtension.command(command);
    }

    private static void assertCaught(Report r) {
        assertFalse(r.clean(), r::text);
        assertTrue(r.findings().stream().anyMatch(f -> f.kind() == Finding.Kind.STRAY_OUTPUT
                && f.detail().contains("noisy: println under the official SDK's modern server")), r::text);
    }

    @Nested
    class OnTheSdksTransportInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyModernServer.main(new String[] {"--official", "--no-child"})).era(ProtocolEra.MODERN)
                // The SDK's own transport drops what is owed at end of input, so the check waits out one timeout.
                .timeout(Duration.ofSeconds(3));

        @Test
        void thePrintIsCaught(McpTestClient client) {
            assertCaught(client.check(NOISY));
        }
    }

    @Nested
    class OverMcpwireInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyModernServer.main(new String[] {"--no-child"}));

        @Test
        void aProbingHostFindsTheModernEraAndTheWireIsClean(McpTestClient client) {
            assertEquals(ProtocolEra.MODERN, client.open());
            assertEquals(TOOLS, client.toolNames());
            assertEquals("child exit 0", client.callToolText("noisy", "{}"));
            assertEquals("slept", client.callToolText("slow", "{}"));
            assertTrue(client.stderr().contains("noisy: println under the official SDK's modern server"), client::stderr);
        }

        @Test
        void theWholeCheckIsCleanInTheModernEra(McpTestClient client) {
            Report r = client.check(NOISY, new Options.ToolCall("echo", "{\"text\":\"hi\"}"), new Options.ToolCall("slow", "{}"));
            assertTrue(r.clean(), r::text);
            assertEquals(ProtocolEra.MODERN, r.era().era(), r::text);
        }
    }

    @Nested
    class TheDualEraServerInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyModernServer.main(new String[] {"--dual", "--no-child"}));

        @Test
        void aModernHostsProbeReachesTheModernServer(McpTestClient client) {
            assertEquals(ProtocolEra.MODERN, client.open());
            assertEquals(TOOLS, client.toolNames());
            assertEquals("child exit 0", client.callToolText("noisy", "{}"));
            JsonRpcError refused = assertInstanceOf(JsonRpcError.class, client.request("initialize",
                    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
            assertEquals(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, refused.error().code(),
                    "a switch of era: the modern server refuses initialize as it would alone");
        }

        @Test
        void aLegacyHostsInitializeReachesTheLegacyServer(McpTestClient client) {
            client.initialize();
            assertEquals(List.of("echo"), client.toolNames());
            assertEquals("legacy", client.callToolText("echo", "{\"text\":\"legacy\"}"));
            JsonRpcError refused = assertInstanceOf(JsonRpcError.class,
                    client.request("server/discover", Dialect.modern("2026-07-28", "host").params(null)));
            assertFalse(McpErrorCodes.isModern(refused.error().code()),
                    "a switch of era: the legacy server refuses the probe as it would alone: " + refused);
        }

        @Test
        void theCheckInEachEraIsClean(McpTestClient client) {
            Report r = client.check(NOISY);
            assertTrue(r.clean(), r::text);
            assertEquals(ProtocolEra.MODERN, r.era().era(), "a probing host gets the modern server: " + r.text());
        }
    }

    @Nested
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
    class OnTheSdksTransportAsAChild {
        @RegisterExtension
        // The child's cat eats a request, whose answer never comes: no need to wait long for it.
        final McpServerExtension server = child("--official").era(ProtocolEra.MODERN).timeout(Duration.ofSeconds(2));

        @Test
        void thePrintAndTheChildsOutputAreCaught(McpTestClient client) {
            Report r = client.check(NOISY);
            assertCaught(r);
            assertTrue(r.text().contains("noisy: child stdout"), r::text);
        }
    }

    @Nested
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
    class OverMcpwireAsAChild {
        @RegisterExtension
        final McpServerExtension server = child();

        @Test
        void theWholeCheckIsCleanInTheModernEra(McpTestClient client) {
            Report r = client.check(NOISY, new Options.ToolCall("slow", "{}"));
            assertTrue(r.clean(), r::text);
            assertEquals(ProtocolEra.MODERN, r.era().era(), r::text);
        }
    }

    @Nested
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
    class TheDualEraServerAsAChild {
        @RegisterExtension
        final McpServerExtension server = child("--dual").era(ProtocolEra.LEGACY);

        @Test
        void aLegacyHostsWholeCheckIsClean(McpTestClient client) {
            Report r = client.check(new Options.ToolCall("echo", "{\"text\":\"hi\"}"));
            assertTrue(r.clean(), r::text);
            assertEquals(ProtocolEra.LEGACY, r.era().era(), r::text);
        }
    }
}
