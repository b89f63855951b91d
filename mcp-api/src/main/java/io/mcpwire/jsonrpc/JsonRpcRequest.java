package io.mcpwire.jsonrpc;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A request: a method call that expects exactly one response with the same id.
 *
 * @param id     the request id, never null
 * @param method the method name, never null
 * @param params a JSON object or array, or null when absent
 */
public record JsonRpcRequest(RequestId id, String method, JsonNode params) implements JsonRpcMessage {
    /** Validates the members. */
    public JsonRpcRequest {
        Objects.requireNonNull(id, "id (a request's id is never null)");
        Params.method(method);
        Params.check(params);
    }
}
