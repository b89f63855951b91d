package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.RequestId;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The bridge's translation between mcpwire's messages and the official SDK's, on any message
 * the codec decodes: what it hands the SDK is what the SDK's own reading of the message's text
 * gives; what the SDK writes of it reads back as the same message; an answer names the request it
 * answers; and the 2026-07-28 server's forms and its cancellation keep the same meaning.
 */
class BridgeTranslationFuzzTest {
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();
    private static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    @DictionaryEntries({"\"jsonrpc\":\"2.0\"", "\"method\":", "\"id\":", "\"params\":", "\"result\":", "\"error\":",
        "\"code\":", "\"message\":", "\"data\":", "\"requestId\":", "notifications/cancelled", "e999", "1.5", "-0",
        "9223372036854775807", "2147483648", "null", "true"})
    @FuzzTest
    void aMessageThroughTheBridgeAndBackKeepsItsMeaning(byte[] line) throws IOException {
        if (!(CODEC.decode(line, 0, line.length) instanceof DecodeResult.Decoded decoded)) {
            return; // the bridge is handed decoded messages only; the codec's own targets judge the rest
        }
        JsonRpcMessage message = decoded.message();
        String text = CODEC.encodeToString(message);
        McpSchema.JSONRPCMessage sdk = SdkMessages.toSdk(message);
        assertEquals(McpSchema.deserializeJsonRpcMessage(MAPPER, text), withInfiniteDoubles(sdk), () -> "the SDK's own reading of " + text);
        assertEquals(decoded, CODEC.decode(MAPPER.writeValueAsString(sdk)), () -> "back from the SDK: " + text);

        if (message instanceof JsonRpcResponse response && response.id() != null) {
            assertEquals(Optional.of(response.id()), SdkMessages.answered(sdk), "a response names its request");
        }
        if (message instanceof JsonRpcRequest request) {
            McpSchema.JSONRPCResponse answer = new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION,
                    SdkMessages.id(request.id()), Map.of(), null);
            assertEquals(Optional.of(request.id()), SdkMessages.answered(answer), "the SDK's answer names the request");
            JsonRpc.JSONRPCRequest modern = ModernMessages.request(request);
            assertEquals(JsonRpc.deserializeMessage(MAPPER, text), new JsonRpc.JSONRPCRequest(modern.jsonrpc(), modern.method(),
                    modern.id(), infiniteDoubles(modern.params())), () -> "the modern SDK's own reading of " + text);
            assertEquals(decoded, CODEC.decode(MAPPER.writeValueAsString(modern)), () -> "back from the modern SDK: " + text);
        }
        if (message instanceof JsonRpcNotification notification) {
            JsonRpc.JSONRPCNotification modern = ModernMessages.notification(notification);
            assertEquals(decoded, CODEC.decode(MAPPER.writeValueAsString(modern)), () -> "back from the modern SDK: " + text);
            assertEquals(requestIdNamed(notification), ModernMessages.cancelled(notification), () -> "the request " + text + " names");
        }
    }

    /**
     * The message as the SDK's own reading would give it: a number beyond a double's range, which
     * the bridge hands on exact (so that the SDK writes it back as it came), is an infinite double there.
     */
    private static McpSchema.JSONRPCMessage withInfiniteDoubles(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest r) {
            return new McpSchema.JSONRPCRequest(r.jsonrpc(), r.method(), r.id(), infiniteDoubles(r.params()));
        }
        if (message instanceof McpSchema.JSONRPCNotification n) {
            return new McpSchema.JSONRPCNotification(n.jsonrpc(), n.method(), infiniteDoubles(n.params()));
        }
        McpSchema.JSONRPCResponse r = (McpSchema.JSONRPCResponse) message;
        McpSchema.JSONRPCResponse.JSONRPCError e = r.error();
        return new McpSchema.JSONRPCResponse(r.jsonrpc(), r.id(), infiniteDoubles(r.result()), e == null ? null
                : new McpSchema.JSONRPCResponse.JSONRPCError(e.code(), e.message(), infiniteDoubles(e.data())));
    }

    private static Object infiniteDoubles(Object value) {
        if (value instanceof java.math.BigDecimal d && Double.isInfinite(d.doubleValue())) {
            return d.doubleValue();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, infiniteDoubles(v)));
            return out;
        }
        if (value instanceof java.util.List<?> list) {
            return list.stream().map(BridgeTranslationFuzzTest::infiniteDoubles).collect(java.util.stream.Collectors.toList());
        }
        return value;
    }

    /** The request a notification's {@code params.requestId} names: a string, or an integer that fits a long. */
    private static Optional<RequestId> requestIdNamed(JsonRpcNotification notification) {
        JsonNode id = notification.params() == null ? null : notification.params().get("requestId");
        if (id == null) {
            return Optional.empty();
        }
        if (id.isString()) {
            return Optional.of(RequestId.of(id.stringValue()));
        }
        return id.isIntegralNumber() && id.canConvertToLong() ? Optional.of(RequestId.of(id.longValue())) : Optional.empty();
    }
}
