package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.check.Dialect;
import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.McpErrorCodes;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.protocol.UnsupportedProtocolVersion;
import io.mcpwire.test.McpServerExtension;
import io.mcpwire.test.McpTestClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The demo server in the test JVM over the fake descriptor table, with mcpwire-test: after each
 * test the extension ends the session and fails it unless the wire carried nothing but JSON-RPC,
 * every request was answered once, and the claim was released.
 */
class DemoServerInProcessTest {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.inProcess(DemoServer::serve);

    @Test
    void listsAndCallsItsTools(McpTestClient client) {
        assertEquals("mcpwire-demo", client.initialize().path("serverInfo").path("name").asString());
        assertEquals(List.of("echo", "noisy", "payload", "spill"), client.toolNames());
        assertEquals("hello", client.callToolText("echo", "{\"text\":\"hello\"}"));
        assertEquals(64 * 1024, client.callToolText("payload", "{\"kib\":64}").length());
    }

    @ParameterizedTest
    @EnumSource(ProtocolEra.class)
    void servesTheSameToolsInEachEra(ProtocolEra era, McpTestClient client) {
        client.open(era);
        assertEquals(List.of("echo", "noisy", "payload", "spill"), client.toolNames());
        assertEquals("hello", client.callToolText("echo", "{\"text\":\"hello\"}"));
        if (era == ProtocolEra.MODERN) {
            JsonNode listed = assertInstanceOf(JsonRpcResult.class,
                    client.request("tools/list", Dialect.modern("2026-07-28", "t").params("{}"))).result();
            assertEquals("complete", listed.path("resultType").asString(), String.valueOf(listed));
            assertEquals("mcpwire-demo", listed.path("_meta").path(MetaKeys.SERVER_INFO).path("name").asString());
            assertTrue(listed.path("ttlMs").isIntegralNumber(), String.valueOf(listed));
        }
    }

    @Test
    void theProbePinsTheModernEraAndAnInitializeAfterItIsRefusedWithTheModernVersions(McpTestClient client) {
        JsonNode discovered = client.discover();
        assertEquals(List.of("2026-07-28"), List.of(discovered.path("supportedVersions").get(0).asString()));
        JsonRpcError refused = assertInstanceOf(JsonRpcError.class,
                client.request("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
        assertEquals(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, refused.error().code());
        assertEquals(List.of("2026-07-28"), UnsupportedProtocolVersion.from(refused).orElseThrow().supported());
        assertThrows(IllegalStateException.class, client::ping, "the modern era has no ping");
    }

    @Test
    void initializePinsTheLegacyEraAndAProbeAfterItIsRefused(McpTestClient client) {
        client.initialize();
        JsonRpcError refused = assertInstanceOf(JsonRpcError.class,
                client.request("server/discover", Dialect.modern("2026-07-28", "t").params(null)));
        assertEquals(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, refused.error().code());
        client.ping();
    }

    @Test
    void aBadArgumentIsAnInvalidParamsErrorAndTheSessionGoesOn(McpTestClient client) {
        client.initialize();
        JsonRpcResponse answer = client.request("tools/call", "{\"name\":\"payload\",\"arguments\":{\"kib\":-1}}");
        assertEquals(ErrorCodes.INVALID_PARAMS, assertInstanceOf(JsonRpcError.class, answer).error().code());
        client.ping();
    }
}
