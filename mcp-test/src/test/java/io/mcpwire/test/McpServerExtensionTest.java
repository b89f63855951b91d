package io.mcpwire.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Options;
import io.mcpwire.check.Report;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The kit against a tidy server in process: the client's calls, the whole check, and a session the test ends. */
class McpServerExtensionTest {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.inProcess(KitServers::tidy);

    @Test
    void aClaimedServerInProcessAnswersAndItsToolsPrintGoesToStderr(McpTestClient client) {
        assertEquals("kit", client.initialize().path("serverInfo").path("name").asString());
        assertEquals(List.of("shout"), client.toolNames());
        assertEquals("HI", client.callToolText("shout", "{\"text\":\"hi\"}"));
        client.ping();
        client.assertWireClean();
        assertTrue(client.stderr().contains("shouting"), client.stderr());
    }

    @Test
    void theWholeCheckRunsInProcess(McpTestClient client) {
        Report r = client.check(new Options.ToolCall("shout", "{\"text\":\"x\"}"));
        assertTrue(r.clean(), r::text);
        assertEquals(0, r.exitStatus().orElse(-1));
        assertTrue(r.openMillis().isPresent() && r.roundTripP50Micros().isPresent(), r::text);
    }

    @Test
    void aTestThatEndsTheSessionGetsTheReport(McpTestClient client) {
        client.initialize();
        client.session().send("ping", null); // owed at end of input
        Report r = client.endSession();
        assertTrue(r.clean(), r::text);
        assertEquals(r, client.endSession(), "ending twice gives the same report");
    }
}
