package io.mcpwire.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Finding;
import io.mcpwire.check.Report;
import io.mcpwire.protocol.ProtocolEra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The kit's legacy server with the modern era pinned: the check speaks it, and finds no session. */
class McpServerExtensionPinnedEraTest {
    @RegisterExtension
    final McpServerExtension pinned = McpServerExtension.inProcess(KitServers::tidy).era(ProtocolEra.MODERN);

    @Test
    void theCheckSpeaksThePinnedEraAndFindsNoSession(McpTestClient client) {
        Report r = client.check();
        assertEquals(ProtocolEra.MODERN, r.era().era(), r::text);
        assertTrue(r.findings().stream().anyMatch(f -> f.kind() == Finding.Kind.NO_SESSION), r::text);
    }
}
