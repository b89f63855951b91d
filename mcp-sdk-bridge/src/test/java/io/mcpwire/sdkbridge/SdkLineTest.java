package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

/** The SDK on this build's path is the 2.x line, and its default mapper writes MCP messages. */
class SdkLineTest {
    @Test
    void theTwoLineIsToldApartAndItsDefaultMapperSerializes() throws Exception {
        assertEquals(SdkLine.V2, SdkLine.current());
        String json = SdkLine.current().defaultMapper().writeValueAsString(McpSchema.JSONRPCResponse.result(5, java.util.Map.of()));
        assertTrue(json.contains("\"id\":5") && json.contains("\"result\":{}"), json);
    }
}
