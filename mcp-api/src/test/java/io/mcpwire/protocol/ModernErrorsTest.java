package io.mcpwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.RequestId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The modern era's errors carry their codes and data as the schema has them, and only they count as modern. */
class ModernErrorsTest {

    @Test
    void aMissingCapabilityNamesItInTheDataAndTheMessage() {
        ObjectNode required = JsonNodeFactory.instance.objectNode();
        required.putObject("elicitation");
        JsonRpcError e = new MissingClientCapability(required).toError(RequestId.of(3));
        assertEquals(McpErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY, e.error().code());
        assertTrue(e.error().data().path("requiredCapabilities").has("elicitation"));
        assertTrue(e.error().message().contains("elicitation"), e.error().message());
    }

    @Test
    void onlyTheCodesTheSpecificationDefinesAreModern() {
        assertTrue(McpErrorCodes.isModern(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION));
        assertTrue(McpErrorCodes.isModern(McpErrorCodes.HEADER_MISMATCH));
        assertFalse(McpErrorCodes.isModern(ErrorCodes.METHOD_NOT_FOUND), "a legacy server's refusal of the probe");
        assertFalse(McpErrorCodes.isModern(-32000), "implementation-defined");
        assertEquals(Optional.empty(), UnsupportedProtocolVersion.from(JsonRpcError.of(RequestId.of(1), -32022, "no data")),
                "without a list of supported versions it cannot be acted on");
        assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18"), McpProtocol.SUPPORTED_VERSIONS);
    }
}
