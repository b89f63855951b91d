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

    /** How much of the client's text an error message quotes. */
    public static final int QUOTE_LIMIT = 200;

    /**
     * A bounded quote of text the client sent (a method name, an id), for an error message: the
     * first {@value #QUOTE_LIMIT} characters and how long it was, so that an answer never grows
     * with the input it answers. The cut never falls inside a surrogate pair, which would leave
     * half a character that strict JSON decoders refuse.
     */
    public static String quote(String clientText) {
        if (clientText.length() <= QUOTE_LIMIT) {
            return clientText;
        }
        int end = Character.isHighSurrogate(clientText.charAt(QUOTE_LIMIT - 1))
                && Character.isLowSurrogate(clientText.charAt(QUOTE_LIMIT)) ? QUOTE_LIMIT - 1 : QUOTE_LIMIT;
        return clientText.substring(0, end) + "... (" + clientText.length() + " characters)";
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
