package io.mcpwire.jsonrpc;

import java.util.Objects;

/**
 * A line that did not decode into a valid message, with what a server should answer.
 *
 * @param code    {@link ErrorCodes#PARSE_ERROR} for text that is not JSON (or not UTF-8), or
 *                {@link ErrorCodes#INVALID_REQUEST} for JSON that is not a valid JSON-RPC
 *                message, exceeds a decoding limit, or is a batch
 * @param message what is wrong, for the error response and for logs
 * @param id      the request id when it could be recovered, else null (always null for
 *                parse errors, as JSON-RPC prescribes)
 */
public record DecodeError(int code, String message, RequestId id) implements DecodeResult {
    /** Validates the members. */
    public DecodeError {
        Objects.requireNonNull(message, "message");
    }

    /** A parse error: the text is not JSON. */
    public static DecodeError parseError(String message) {
        return new DecodeError(ErrorCodes.PARSE_ERROR, message, null);
    }

    /** An invalid request: JSON, but not a valid JSON-RPC message. */
    public static DecodeError invalidRequest(String message, RequestId id) {
        return new DecodeError(ErrorCodes.INVALID_REQUEST, message, id);
    }

    /** The error response a server sends for this line. */
    public JsonRpcError toResponse() {
        String text = code == ErrorCodes.PARSE_ERROR ? "Parse error" : "Invalid Request";
        return JsonRpcError.of(id, code, text + ": " + JsonRpcError.quote(message));
    }
}
