package io.mcpwire.jsonrpc;

/** A response to a request: either a {@link JsonRpcResult} or a {@link JsonRpcError}. */
public sealed interface JsonRpcResponse extends JsonRpcMessage permits JsonRpcResult, JsonRpcError {

    /** The id of the request answered; null only on an error whose request id was unreadable. */
    RequestId id();
}
