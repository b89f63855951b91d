package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.stdio.Children;
import io.mcpwire.stdio.HostWatch;
import io.mcpwire.stdio.Isolation;
import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StrayOutput;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/** Both of the bridge's entry points honour every {@code mcpwire.*} system property. */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class BridgeSettingsTest {
    private static final Map<String, String> PROPERTIES = Map.of("mcpwire.platform", "fake", "mcpwire.isolation", "required",
            "mcpwire.stray-output", "null", "mcpwire.stderr", "direct", "mcpwire.host-watch", "parent",
            "mcpwire.children", "leave", "mcpwire.children-grace", "PT0.5S");
    private static final McpwireSettings EXPECTED = new McpwireSettings(Optional.of("fake"), Isolation.REQUIRED,
            StrayOutput.nullDevice(), StderrPolicy.DIRECT, HostWatch.PARENT, Children.LEAVE, Duration.ofMillis(500));

    @Test
    void theLegacyProviderAndTheModernTransportTakeEverySetting() {
        PROPERTIES.forEach(System::setProperty);
        try {
            FakeProcess.setShared(FakeProcess.withPipes());
            McpwireStdioServerTransportProvider legacy = new McpwireStdioServerTransportProvider();
            assertEquals(EXPECTED, legacy.transport().settings());
            assertEquals(EXPECTED, legacy.transport().claim().orElseThrow().settings());
            legacy.transport().close();
            FakeProcess.setShared(FakeProcess.withPipes());
            McpwireStdioMcpTransport modern = new McpwireStdioMcpTransport(NoisyModernServer.server(false, reactor.core.publisher.Flux.never()),
                    McpJsonDefaults.getMapper());
            assertEquals(EXPECTED, modern.transport().settings());
            assertEquals("fake", modern.transport().claim().orElseThrow().platformName());
            modern.transport().close();
        } finally {
            PROPERTIES.keySet().forEach(System::clearProperty);
        }
    }
}
