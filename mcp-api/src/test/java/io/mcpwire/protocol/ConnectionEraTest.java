package io.mcpwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The first request that names an era pins it; the other era's requests are refused with the versions spoken. */
class ConnectionEraTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private long id;

    private JsonRpcRequest request(String method, String params) {
        return new JsonRpcRequest(RequestId.of(++id), method, params == null ? null : JSON.readTree(params));
    }

    private static String modern(String version) {
        return "{\"_meta\":{\"" + MetaKeys.PROTOCOL_VERSION + "\":\"" + version + "\",\"" + MetaKeys.CLIENT_CAPABILITIES + "\":{}}}";
    }

    private static JsonRpcError refused(ConnectionEra.Decision d, int code) {
        JsonRpcError e = assertInstanceOf(ConnectionEra.Decision.Refuse.class, d).error();
        assertEquals(code, e.error().code(), e.error().message());
        return e;
    }

    @Test
    void theProbePinsTheModernEraAndInitializeIsThenRefusedWithTheModernVersions() {
        ConnectionEra era = new ConnectionEra();
        assertEquals(new ConnectionEra.Decision.Serve(ProtocolEra.MODERN, "2026-07-28"),
                era.admit(request("server/discover", modern("2026-07-28"))));
        assertEquals(Optional.of(ProtocolEra.MODERN), era.pinned());
        JsonRpcError e = refused(era.admit(request("initialize", "{\"protocolVersion\":\"2025-06-18\"}")),
                McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
        UnsupportedProtocolVersion u = UnsupportedProtocolVersion.from(e).orElseThrow();
        assertEquals(List.of("2026-07-28"), u.supported());
        assertEquals(Optional.of("2025-06-18"), u.requested());
        assertTrue(e.error().message().contains("2026-07-28"), e.error().message());
        refused(era.admit(request("tools/list", "{}")), McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
        assertEquals(new ConnectionEra.Decision.Serve(ProtocolEra.MODERN, "2026-07-28"),
                era.admit(request("tools/list", modern("2026-07-28"))));
    }

    @Test
    void initializePinsTheLegacyEraAtTheVersionItAgreesAndModernRequestsAreThenRefused() {
        ConnectionEra era = new ConnectionEra();
        assertEquals(new ConnectionEra.Decision.Serve(ProtocolEra.LEGACY, "2025-06-18"),
                era.admit(request("initialize", "{\"protocolVersion\":\"2025-06-18\"}")));
        assertEquals(new ConnectionEra.Decision.Serve(ProtocolEra.LEGACY, "2025-06-18"), era.admit(request("ping", null)));
        JsonRpcError e = refused(era.admit(request("server/discover", modern("2026-07-28"))), McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
        assertEquals(List.of("2025-06-18"), UnsupportedProtocolVersion.from(e).orElseThrow().supported());
        assertEquals(Optional.of(ProtocolEra.LEGACY), era.pinned());
    }

    @Test
    void aVersionNotSpokenIsRefusedWithTheSupportedListAndPinsNothing() {
        ConnectionEra era = new ConnectionEra();
        JsonRpcError e = refused(era.admit(request("server/discover", modern("2099-01-01"))), McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
        assertEquals(new UnsupportedProtocolVersion(List.of("2026-07-28"), Optional.of("2099-01-01")),
                UnsupportedProtocolVersion.from(e).orElseThrow());
        assertEquals(Optional.empty(), era.pinned());
        assertInstanceOf(ConnectionEra.Decision.Serve.class, era.admit(request("initialize", "{\"protocolVersion\":\"2025-11-25\"}")));
    }

    @Test
    void aMalformedMetaIsInvalidParamsNamingTheKey() {
        ConnectionEra era = new ConnectionEra();
        JsonRpcError e = refused(era.admit(request("tools/list",
                "{\"_meta\":{\"" + MetaKeys.PROTOCOL_VERSION + "\":\"2026-07-28\"}}")), ErrorCodes.INVALID_PARAMS);
        assertTrue(e.error().message().contains(MetaKeys.CLIENT_CAPABILITIES), e.error().message());
        refused(era.admit(request("tools/list", "{\"_meta\":{\"" + MetaKeys.PROTOCOL_VERSION + "\":20260728}}")), ErrorCodes.INVALID_PARAMS);
        assertEquals(Optional.empty(), era.pinned());
    }

    @Test
    void aRequestWithoutAModernClaimFirstPinsTheLegacyEra() {
        ConnectionEra era = new ConnectionEra();
        assertEquals(new ConnectionEra.Decision.Serve(ProtocolEra.LEGACY, McpProtocol.LATEST_LEGACY_VERSION),
                era.admit(request("tools/list", "{\"_meta\":{\"progressToken\":1}}")));
        refused(era.admit(request("tools/list", modern("2026-07-28"))), McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
    }

    @Test
    void eraOfAVersionFollowsItsDate() {
        assertEquals(ProtocolEra.LEGACY, ProtocolEra.of("2025-11-25"));
        assertEquals(ProtocolEra.MODERN, ProtocolEra.of("2026-07-28"));
        assertEquals(ProtocolEra.MODERN, ProtocolEra.of("2027-01-01"));
        assertEquals("2025-11-25", McpProtocol.negotiate("2026-07-28"), "initialize never agrees a modern version");
    }

    @Test
    void aDiscoverResultReadsBackAsWritten() {
        ObjectNode caps = JSON.createObjectNode();
        caps.putObject("tools");
        DiscoverResult d = new DiscoverResult(List.of("2026-07-28"), caps, Optional.of(new Implementation("s", "1")),
                Optional.empty(), new CacheHint(60_000, CacheHint.Scope.PUBLIC));
        JsonNode json = d.toJson();
        assertEquals("complete", json.get("resultType").stringValue());
        assertEquals("s", json.path("_meta").path(MetaKeys.SERVER_INFO).path("name").stringValue());
        assertEquals(d, DiscoverResult.fromJson(json));
        assertEquals(Optional.of(ResultType.COMPLETE), ResultType.of(JSON.createObjectNode()), "absent means complete");
        assertEquals(Optional.empty(), ResultType.of(JSON.readTree("{\"resultType\":\"later\"}")), "unknown is refused");
    }
}
