package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.McpProtocol;
import io.modelcontextprotocol.modern.JsonRpc;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The messages mcpwire decoded, as the SDK's modern server takes them ({@code JsonRpc}, SDK 2.2):
 * the JSON tree becomes plain maps, lists and values, as the SDK's own reading makes them, so each
 * message is parsed once.
 */
final class ModernMessages {
    private ModernMessages() {
    }

    /** The SDK's form of {@code request}. */
    static JsonRpc.JSONRPCRequest request(JsonRpcRequest request) {
        return new JsonRpc.JSONRPCRequest(JsonRpc.JSONRPC_VERSION, request.method(), SdkMessages.id(request.id()),
                SdkMessages.plain(request.params()));
    }

    /** The SDK's form of {@code notification}. */
    static JsonRpc.JSONRPCNotification notification(JsonRpcNotification notification) {
        return new JsonRpc.JSONRPCNotification(JsonRpc.JSONRPC_VERSION, notification.method(),
                SdkMessages.plain(notification.params()));
    }

    /** The request a {@code notifications/cancelled} names, when it names one. */
    static Optional<RequestId> cancelled(JsonRpcNotification notification) {
        JsonNode id = notification.params() == null ? null : notification.params().get("requestId");
        if (id != null && id.isString()) {
            return Optional.of(RequestId.of(id.stringValue()));
        }
        if (id != null && id.isIntegralNumber() && id.canConvertToLong()) {
            return Optional.of(RequestId.of(id.longValue()));
        }
        return Optional.empty();
    }
}
