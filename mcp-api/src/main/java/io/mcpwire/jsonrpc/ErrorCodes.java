package io.mcpwire.jsonrpc;

/** The error codes that JSON-RPC 2.0 reserves. */
public final class ErrorCodes {
    /** The text is not JSON (also: not valid UTF-8). The response id is null. */
    public static final int PARSE_ERROR = -32700;
    /** The JSON is not a valid JSON-RPC message, or exceeds a decoding limit. */
    public static final int INVALID_REQUEST = -32600;
    /** The method does not exist or is not available. */
    public static final int METHOD_NOT_FOUND = -32601;
    /** The method's parameters are invalid. */
    public static final int INVALID_PARAMS = -32602;
    /** An internal error of the server. */
    public static final int INTERNAL_ERROR = -32603;

    private ErrorCodes() {
    }
}
