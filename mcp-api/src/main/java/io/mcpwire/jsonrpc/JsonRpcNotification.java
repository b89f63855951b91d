package io.mcpwire.jsonrpc;

import tools.jackson.databind.JsonNode;

/**
 * A notification: a method call without an id, which is never answered.
 *
 * @param method the method name, never null
 * @param params a JSON object or array, or null when absent
 */
public record JsonRpcNotification(String method, JsonNode params) implements JsonRpcMessage {
    /** Validates the members. */
    public JsonRpcNotification {
        Params.method(method);
        Params.check(params);
    }
}
