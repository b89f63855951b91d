package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Turns the messages mcpwire decoded into the SDK's, without text in between: the JSON tree
 * becomes the plain maps, lists and values the SDK's own reading produces, so each message is
 * parsed once. And tells which request an SDK message answers.
 */
final class SdkMessages {
    private static final String JSONRPC = McpSchema.JSONRPC_VERSION;

    private SdkMessages() {
    }

    /** The SDK's form of {@code message}. */
    static McpSchema.JSONRPCMessage toSdk(JsonRpcMessage message) {
        if (message instanceof JsonRpcRequest r) {
            return new McpSchema.JSONRPCRequest(JSONRPC, r.method(), id(r.id()), plain(r.params()));
        }
        if (message instanceof JsonRpcNotification n) {
            return new McpSchema.JSONRPCNotification(JSONRPC, n.method(), plain(n.params()));
        }
        if (message instanceof JsonRpcResult r) {
            return new McpSchema.JSONRPCResponse(JSONRPC, id(r.id()), plain(r.result()), null);
        }
        JsonRpcError e = (JsonRpcError) message;
        return new McpSchema.JSONRPCResponse(JSONRPC, id(e.id()), null, new McpSchema.JSONRPCResponse.JSONRPCError(
                e.error().code(), e.error().message(), plain(e.error().data())));
    }

    /** The request {@code message} answers, when it is a response with an id mcpwire can name. */
    static Optional<RequestId> answered(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCResponse r) {
            Object id = r.id();
            if (id instanceof String s) {
                return Optional.of(RequestId.of(s));
            }
            if (id instanceof Integer || id instanceof Long || id instanceof Short || id instanceof Byte) {
                return Optional.of(RequestId.of(((Number) id).longValue()));
            }
        }
        return Optional.empty();
    }

    /** An id as the SDK's own reading gives it: a string, or an integer in the smallest type it fits. */
    static Object id(RequestId id) {
        if (id instanceof RequestId.StringId s) {
            return s.value();
        }
        if (id instanceof RequestId.NumberId n) {
            long v = n.value();
            return v == (int) v ? (Object) (int) v : (Object) v;
        }
        return null; // an error answering a request whose id could not be read
    }

    /** A JSON tree as plain Java values; null for an absent or null node. */
    static Object plain(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                map.put(member.getKey(), plain(member.getValue()));
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode element : node) {
                list.add(plain(element));
            }
            return list;
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNumber()) {
            return node.numberValue();
        }
        return node.toString(); // nothing else comes out of parsing JSON
    }
}
