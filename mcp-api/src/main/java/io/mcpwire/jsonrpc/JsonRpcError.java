package io.mcpwire.jsonrpc;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * An error response.
 *
 * @param id    the id of the request answered, or null when it could not be read
 * @param error the error object, never null
 */
public record JsonRpcError(RequestId id, ErrorObject error) implements JsonRpcResponse {
    /** Validates the members. */
    public JsonRpcError {
        Objects.requireNonNull(error, "error");
    }

    /** Returns an error response with the given code and message and no data. */
    public static JsonRpcError of(RequestId id, int code, String message) {
        return new JsonRpcError(id, new ErrorObject(code, message, null));
    }

    /**
     * The {@code error} member of an error response.
     *
     * @param code    the error code (see {@link ErrorCodes})
     * @param message a short description, never null
     * @param data    any JSON value with more detail, or null when absent
     */
    public record ErrorObject(int code, String message, JsonNode data) {
        /** Validates the members. */
        public ErrorObject {
            Objects.requireNonNull(message, "message");
        }
    }
}
