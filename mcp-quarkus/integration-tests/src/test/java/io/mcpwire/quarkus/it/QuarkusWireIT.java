package io.mcpwire.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Options;
import io.mcpwire.check.Report;
import io.mcpwire.test.McpServerExtension;
import io.mcpwire.test.McpTestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The test application with mcpwire-quarkus as a host starts it, its console log sent to stdout
 * on purpose ({@code quarkus.log.console.stderr=false}): the banner, the start-up log, a tool's
 * print and an {@code inheritIO()} child all reach stderr, and the wire stays clean.
 */
class QuarkusWireIT {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.command(QuarkusApp.command("-Dquarkus.log.console.stderr=false"))
            .timeout(QuarkusApp.PATIENCE);

    @Test
    void mcpwireCheckFindsTheWireCleanWithEveryToolCalled(McpTestClient client) {
        Report r = client.check(new Options.ToolCall("noisy", "{}"), new Options.ToolCall("echo", "{\"text\":\"hi\"}"),
                new Options.ToolCall("slow", "{\"millis\":10}"));
        assertTrue(r.clean(), r::text);
        String stderr = client.stderr();
        assertTrue(stderr.contains("__  ____  __  _____"), "the banner, on stderr:\n" + stderr);
        assertTrue(stderr.contains("Installed features: [cdi, mcp-server-stdio, mcpwire"), "the start-up log, on stderr:\n" + stderr);
        assertTrue(stderr.contains("quarkus-it: println from a tool"), "the tool's print, not lost:\n" + stderr);
        assertTrue(stderr.contains("quarkus-it: child stdout"), "the inheritIO() child's output, not lost:\n" + stderr);
    }

    @Test
    void aToolReadsTheNullDeviceAndItsChildNeitherWritesNorReadsTheWire(McpTestClient client) {
        client.initialize();
        assertEquals("child exit code 0; System.in gave end of input", client.callToolText("noisy", "{}"));
        assertEquals("hi", client.callToolText("echo", "{\"text\":\"hi\"}"));
        client.assertWireClean();
    }
}
