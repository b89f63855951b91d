package io.mcpwire.test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A second in-process server for the same test, as an outer class's extension and a nested
 * class's both give, fails at once with what to do instead of waiting for ever for its turn.
 */
class McpServerExtensionNestedTest {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.inProcess(KitServers::tidy);

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS) // without the check, the second start waits for ever
    void aSecondInProcessServerForTheSameTestFailsAtOnce(McpTestClient client) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> InProcessServer.start("a second", KitServers::tidy));
        assertTrue(e.getMessage().contains("register one McpServerExtension.inProcess per test"), e.getMessage());
        client.initialize(); // the first server still serves
    }
}
