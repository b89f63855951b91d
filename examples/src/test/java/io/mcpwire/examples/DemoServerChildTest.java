package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Report;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.test.McpServerExtension;
import io.mcpwire.test.McpTestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The demo server as a host starts it, {@code java -p ... -m ...} on real pipes, with mcpwire-test:
 * its noisy tool prints, leaves bytes unflushed and starts a child with inherited stdio, and the
 * wire stays clean.
 */
class DemoServerChildTest {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.module("io.mcpwire.examples/" + DemoServer.class.getName());

    @ParameterizedTest
    @EnumSource(ProtocolEra.class)
    void theNoisyToolLeavesTheWireCleanInEachEra(ProtocolEra era, McpTestClient client) {
        client.open(era);
        String answer = client.callToolText("noisy", "{}");
        assertTrue(answer.endsWith("System.in gave end of input"), answer);
        assertTrue(client.stderr().contains("noisy: System.out.println from a tool"), client::stderr);
    }

    @Test
    void theWholeCheckIsCleanAndModernAsAHostProbesIt(McpTestClient client) {
        Report r = client.check();
        assertTrue(r.clean(), r::text);
        assertEquals(ProtocolEra.MODERN, r.era().era(), r::text);
    }
}
