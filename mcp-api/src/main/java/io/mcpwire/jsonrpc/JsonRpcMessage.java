package io.mcpwire.jsonrpc;

/**
 * One JSON-RPC 2.0 message: a request, a notification, or a response (a result or an error).
 *
 * <p>Messages are immutable values. The JSON trees they carry ({@code params}, {@code result},
 * {@code error.data}) are shared, not copied, for speed: treat them as read-only once a message
 * holds them.
 */
public sealed interface JsonRpcMessage
        permits JsonRpcRequest, JsonRpcNotification, JsonRpcResponse {

    /** The protocol version string that every message carries in its {@code jsonrpc} member. */
    String VERSION = "2.0";
}
