package io.mcpwire.protocol;

/**
 * The error codes MCP defines, in the range {@code -32020..-32099} that the specification keeps
 * for itself (see {@link io.mcpwire.jsonrpc.ErrorCodes} for those of JSON-RPC).
 */
public final class McpErrorCodes {
    /** HTTP only: a request's headers and body disagree. */
    public static final int HEADER_MISMATCH = -32020;
    /** The request needs a client capability its {@code _meta} did not declare. */
    public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    /** The request's protocol version is one the server does not speak; the data lists those it does. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private McpErrorCodes() {
    }

    /**
     * Whether {@code code} is one of the modern errors above, which marks the peer as a modern
     * server: a dual-era client that gets one in answer to its probe stays in the modern era and
     * does not fall back to {@code initialize}.
     */
    public static boolean isModern(int code) {
        return code == HEADER_MISMATCH || code == MISSING_REQUIRED_CLIENT_CAPABILITY || code == UNSUPPORTED_PROTOCOL_VERSION;
    }
}
