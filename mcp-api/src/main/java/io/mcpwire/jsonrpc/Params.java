package io.mcpwire.jsonrpc;

import tools.jackson.databind.JsonNode;

/** Checks shared by the message records. */
final class Params {
    private Params() {
    }

    /** {@code params} is absent, an object or an array; anything else is refused. */
    static JsonNode check(JsonNode params) {
        if (params != null && !params.isObject() && !params.isArray()) {
            throw new IllegalArgumentException(
                    "params must be a JSON object or array, not " + params.getNodeType());
        }
        return params;
    }

    static String method(String method) {
        if (method == null) {
            throw new NullPointerException("method");
        }
        return method;
    }
}
