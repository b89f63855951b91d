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
 * An official-SDK server whose tool prints, under mcpwire-test's checks: on the SDK's own stdio
 * transport the print is caught, in process and as a child process; over the bridge the wire is
 * clean both ways.
 */
class OfficialServerWireTest {
    private static final Options.ToolCall NOISY = new Options.ToolCall("noisy", "{}");

    private static McpServerExtension child(String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath(),
                NoisyOfficialServer.class.getName()));
        command.addAll(List.of(args));
        return McpServerExtension.command(command);
    }

    private static void assertCaught(Report r) {
        assertFalse(r.clean(), r::text);
        assertTrue(r.findings().stream().anyMatch(f -> f.kind() == Finding.Kind.STRAY_OUTPUT
                && f.detail().contains("noisy: println under the official SDK")), r::text);
    }

    @Nested
    class OnTheSdksTransportInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyOfficialServer.main(new String[] {"--official", "--no-child"}))
                // The SDK's own transport drops what is owed at end of input, so the check waits out one timeout.
                .timeout(Duration.ofSeconds(3));

        @Test
        void thePrintIsCaught(McpTestClient client) {
            assertCaught(client.check(NOISY));
        }
    }

    @Nested
    class OverTheBridgeInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyOfficialServer.main(new String[] {"--no-child"}));

        @Test
        void theWireIsClean(McpTestClient client) {
            client.initialize();
            assertEquals(List.of("noisy", "spill"), client.toolNames());
            assertEquals("child exit 0", client.callToolText("noisy", "{}"));
            assertTrue(client.stderr().contains("noisy: println under the official SDK"), client::stderr);
        }
    }

    @Nested
    class TheProbeOverTheBridgeInProcess {
        // A dual-era host waits about 3 s for its server/discover probe, then falls back.
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(
                () -> NoisyOfficialServer.main(new String[] {"--no-child"})).timeout(Duration.ofSeconds(3));

        @Test
        void isRefusedWithinTheHostsWaitAndTheSessionFallsBackToInitialize(McpTestClient client) {
            JsonRpcError refused = assertInstanceOf(JsonRpcError.class,
                    client.request("server/discover", Dialect.modern("2026-07-28", "host").params(null)));
            assertFalse(McpErrorCodes.isModern(refused.error().code()), "a legacy server's refusal: " + refused);
            client.initialize();
            assertEquals(List.of("noisy", "spill"), client.toolNames());
        }

        @Test
        void leavesAHostThatProbesALegacySession(McpTestClient client) {
            assertEquals(ProtocolEra.LEGACY, client.open());
            assertEquals("child exit 0", client.callToolText("noisy", "{}"));
        }
    }

    @Nested
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
    class OnTheSdksTransportAsAChild {
        @RegisterExtension
        // The child's cat eats a request, whose answer never comes: no need to wait long for it.
        final McpServerExtension server = child("--official").timeout(Duration.ofSeconds(2));

        @Test
        void thePrintAndTheChildsOutputAreCaught(McpTestClient client) {
            Report r = client.check(NOISY);
            assertCaught(r);
            assertTrue(r.text().contains("noisy: child stdout"), r::text);
        }
    }

    @Nested
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the noisy tool's child is a POSIX shell")
    class OverTheBridgeAsAChild {
        @RegisterExtension
        final McpServerExtension server = child();

        @Test
        void theWholeCheckIsCleanAndTheProbeWasRefusedAtOnce(McpTestClient client) {
            Report r = client.check(NOISY);
            assertTrue(r.clean(), r::text);
            assertEquals(ProtocolEra.LEGACY, r.era().era(), r::text);
            assertTrue(r.era().probeMillis().isPresent(), () -> "the probe was answered: " + r.text());
        }
    }
}
