package io.mcpwire.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Finding;
import io.mcpwire.check.Report;
import io.mcpwire.protocol.ProtocolEra;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The kit's eras against its legacy server: the probe falls back, a pinned modern era finds no session. */
class McpServerExtensionErasTest {

    @RegisterExtension
    final McpServerExtension legacyServer = McpServerExtension.inProcess(KitServers::tidy);

    @Test
    void openProbesAsAHostDoesAndFallsBackToInitialize(McpTestClient client) {
        assertEquals(ProtocolEra.LEGACY, client.open());
        assertEquals(Optional.of(ProtocolEra.LEGACY), client.era());
        assertEquals("HI", client.callToolText("shout", "{\"text\":\"hi\"}"));
        client.ping();
    }

    @Test
    void aModernSessionOnALegacyServerFailsTheTestWithTheServersAnswer(McpTestClient client) {
        AssertionError e = assertThrows(AssertionError.class, client::discover);
        assertTrue(e.getMessage().contains("server/discover failed: -32601"), e.getMessage());
    }
}
