package io.mcpwire.jsonrpc;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A successful response.
 *
 * @param id     the id of the request answered, never null
 * @param result the result, any JSON value (JSON {@code null} is a {@code NullNode}), never null
 */
public record JsonRpcResult(RequestId id, JsonNode result) implements JsonRpcResponse {
    /** Validates the members. */
    public JsonRpcResult {
        Objects.requireNonNull(id, "id (only an error response may have a null id)");
        Objects.requireNonNull(result, "result (use a NullNode for JSON null)");
    }
}
