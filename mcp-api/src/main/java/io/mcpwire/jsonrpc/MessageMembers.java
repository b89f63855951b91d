package io.mcpwire.jsonrpc;

import tools.jackson.databind.JsonNode;

/**
 * The top-level members of one message as {@link MessageReader} reads them, enough to recover the
 * id after a failure, and the JSON-RPC 2.0 rules that turn them into a message or an error.
 */
final class MessageMembers {
    /** A marker for a member present with the wrong JSON type. */
    static final String BAD = new String("<not a string>");

    String jsonrpc;
    String method;
    boolean hasId;
    boolean nullId;
    RequestId id;
    String badId;
    JsonNode params;
    JsonNode result;
    JsonNode error;
    String duplicate;
    private boolean idTwice;
    private int seenMask;

    /** Records a member name; false for names this codec does not read. */
    boolean seen(String name) {
        int bit = switch (name) {
            case "jsonrpc" -> 1;
            case "method" -> 2;
            case "id" -> 4;
            case "params" -> 8;
            case "result" -> 16;
            case "error" -> 32;
            default -> 0;
        };
        if (bit == 0) {
            return false;
        }
        if ((seenMask & bit) != 0 && duplicate == null) {
            duplicate = name;
        }
        // Whichever member was duplicated first, a second "id" makes the id ambiguous.
        idTwice |= (seenMask & bit) == 4;
        seenMask |= bit;
        return true;
    }

    RequestId validId() {
        return idTwice ? null : id;
    }

    DecodeResult toMessage() {
        RequestId rid = validId();
        if (duplicate != null) {
            return DecodeError.invalidRequest("duplicate member \"" + duplicate + "\"", rid);
        }
        if (jsonrpc == null) {
            return DecodeError.invalidRequest("missing \"jsonrpc\": \"2.0\"", rid);
        }
        if (!JsonRpcMessage.VERSION.equals(jsonrpc)) {
            return DecodeError.invalidRequest("\"jsonrpc\" must be \"2.0\"", rid);
        }
        if (badId != null) {
            return DecodeError.invalidRequest(badId + " is not allowed (string or integer)", null);
        }
        if (method != null) {
            return toCall(rid);
        }
        return toResponse(rid);
    }

    private DecodeResult toCall(RequestId rid) {
        if (method == BAD) {
            return DecodeError.invalidRequest("\"method\" must be a string", rid);
        }
        if (result != null || error != null) {
            return DecodeError.invalidRequest("a request must not carry \"result\" or \"error\"", rid);
        }
        if (params != null && !params.isObject() && !params.isArray()) {
            return DecodeError.invalidRequest("\"params\" must be an object or an array", rid);
        }
        if (nullId) {
            return DecodeError.invalidRequest("a request id must not be null", null);
        }
        JsonRpcMessage msg = hasId ? new JsonRpcRequest(id, method, params) : new JsonRpcNotification(method, params);
        return new DecodeResult.Decoded(msg);
    }

    private DecodeResult toResponse(RequestId rid) {
        if (result == null && error == null) {
            return DecodeError.invalidRequest(params != null || !hasId
                    ? "missing \"method\"" : "a response needs \"result\" or \"error\"", rid);
        }
        if (result != null && error != null) {
            return DecodeError.invalidRequest("a response must not carry both \"result\" and \"error\"", rid);
        }
        if (!hasId) {
            return DecodeError.invalidRequest("a response needs an \"id\"", null);
        }
        if (result != null) {
            if (nullId) {
                return DecodeError.invalidRequest("a result's id must not be null", null);
            }
            return new DecodeResult.Decoded(new JsonRpcResult(id, result));
        }
        return toError(rid);
    }

    private DecodeResult toError(RequestId rid) {
        if (!error.isObject()) {
            return DecodeError.invalidRequest("\"error\" must be an object", rid);
        }
        JsonNode code = error.get("code");
        JsonNode message = error.get("message");
        if (code == null || !code.isIntegralNumber() || !code.canConvertToInt()) {
            return DecodeError.invalidRequest("\"error.code\" must be an integer", rid);
        }
        if (message == null || !message.isString()) {
            return DecodeError.invalidRequest("\"error.message\" must be a string", rid);
        }
        JsonRpcError.ErrorObject eo = new JsonRpcError.ErrorObject(code.intValue(), message.stringValue(), error.get("data"));
        return new DecodeResult.Decoded(new JsonRpcError(id, eo));
    }
}
