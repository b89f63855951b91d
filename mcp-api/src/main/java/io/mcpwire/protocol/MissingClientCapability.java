package io.mcpwire.protocol;

import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.RequestId;
import java.util.Objects;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The modern era's answer to a request that needs a client capability its {@code _meta} did not
 * declare (code {@value McpErrorCodes#MISSING_REQUIRED_CLIENT_CAPABILITY}).
 *
 * @param required the capabilities needed, in the shape of {@code clientCapabilities}
 */
public record MissingClientCapability(ObjectNode required) {
    /** Validates the member. */
    public MissingClientCapability {
        Objects.requireNonNull(required, "required");
    }

    /** The error response to request {@code id}. */
    public JsonRpcError toError(RequestId id) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.set("requiredCapabilities", required.deepCopy());
        return new JsonRpcError(id, new JsonRpcError.ErrorObject(McpErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability: " + JsonRpcError.quote(String.join(", ", required.propertyNames())), data));
    }
}
