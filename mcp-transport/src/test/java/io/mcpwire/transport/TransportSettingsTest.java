package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.stdio.Children;
import io.mcpwire.stdio.HostWatch;
import io.mcpwire.stdio.Isolation;
import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StrayOutput;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/** The transport's builder honours every {@code mcpwire.*} system property, for its own claim and its host watch; its calls win. */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class TransportSettingsTest {
    @Test
    void everySystemPropertyTakesEffectAndTheBuildersCallsWin() {
        FakeProcess fake = FakeProcess.withPipes();
        FakeProcess.setShared(fake);
        Map<String, String> properties = Map.of("mcpwire.platform", "fake", "mcpwire.isolation", "required",
                "mcpwire.stray-output", "null", "mcpwire.stderr", "direct", "mcpwire.host-watch", "off",
                "mcpwire.children", "leave", "mcpwire.children-grace", "250ms");
        properties.forEach(System::setProperty);
        try {
            StdioTransport t = StdioTransport.create();
            McpwireSettings expected = new McpwireSettings(Optional.of("fake"), Isolation.REQUIRED, StrayOutput.nullDevice(),
                    StderrPolicy.DIRECT, HostWatch.OFF, Children.LEAVE, Duration.ofMillis(250));
            assertEquals(expected, t.settings());
            assertEquals(expected, t.claim().orElseThrow().settings(), "the transport's own claim was taken with them");
            assertEquals("fake", t.claim().orElseThrow().platformName());
            assertEquals("null device (write)", fake.describe(1), "mcpwire.stray-output=null");
            t.close();
            StdioTransport explicit = StdioTransport.builder().hostWatch(HostWatch.PARENT).build();
            assertEquals(HostWatch.PARENT, explicit.settings().hostWatch(), "the builder's call wins");
            explicit.close();
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }
}
