package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.ProtocolEra;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The route of a dual-era connection over the official SDK's two servers ({@link EraRoute}), for
 * any run of messages, against {@code docs/official-sdk.md}: the first request decides for good;
 * {@code initialize}, or a request without a modern version, goes to the legacy session;
 * {@code server/discover}, or a request whose {@code _meta} names a version of 2026-07-28 or
 * later, to the modern server; notifications before it and the client's responses go to the
 * legacy session.
 */
class EraRouteFuzzTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] METHODS = {"initialize", "server/discover", "tools/list", "notifications/initialized"};
    private static final String[] VERSIONS = {"2026-07-28", "2027-01-01", "2025-11-25", "2025-06-18", ""};

    @FuzzTest
    void theFirstRequestDecidesTheServerForGood(FuzzedDataProvider data) {
        EraRoute route = new EraRoute();
        Boolean modern = null; // undecided until the first request
        for (int id = 1; id <= 8 && data.remainingBytes() > 0; id++) {
            int kind = data.consumeInt(0, 2);
            String method = data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeString(10);
            ObjectNode params = null;
            boolean namesModern = false;
            if (data.consumeBoolean()) {
                params = NODES.objectNode();
                ObjectNode meta = params.putObject(MetaKeys.META);
                if (data.consumeBoolean()) {
                    String version = data.consumeBoolean() ? data.pickValue(VERSIONS) : data.consumeString(12);
                    meta.put(MetaKeys.PROTOCOL_VERSION, version);
                    namesModern = ProtocolEra.of(version) == ProtocolEra.MODERN;
                } else if (data.consumeBoolean()) {
                    meta.put(MetaKeys.PROTOCOL_VERSION, 20260728); // not a string: names no version
                }
            }
            JsonRpcMessage message = switch (kind) {
                case 0 -> new JsonRpcRequest(RequestId.of(id), method, params);
                case 1 -> new JsonRpcNotification(method, params);
                default -> new JsonRpcResult(RequestId.of(id), NODES.objectNode());
            };
            if (message instanceof JsonRpcRequest && modern == null) {
                modern = !"initialize".equals(method) && ("server/discover".equals(method) || namesModern);
            }
            boolean expected = Boolean.TRUE.equals(modern) && kind != 2;
            assertEquals(expected, route.toModern(message), () -> "for " + message);
            assertEquals(Boolean.TRUE.equals(modern), route.pinnedModern());
        }
    }
}
