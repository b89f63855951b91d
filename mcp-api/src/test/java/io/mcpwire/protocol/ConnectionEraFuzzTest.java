package io.mcpwire.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The era route of a dual-era connection ({@link ConnectionEra}) over any run of requests, against
 * the rules of {@code docs/eras.md} written out plainly ({@link EraRules}): the first request that
 * names an era pins it, a malformed {@code _meta} is -32602, a version not spoken is -32022 and
 * pins nothing, and a pinned connection never mixes eras.
 */
class ConnectionEraFuzzTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] METHODS = {"initialize", "server/discover", "tools/list", "tools/call", "ping"};
    private static final String[] VERSIONS = {"2026-07-28", "2027-01-01", "2025-11-25", "2025-06-18", "2024-11-05", ""};

    @FuzzTest
    void everyRequestIsAdmittedAsTheEraRulesSay(FuzzedDataProvider data) {
        ConnectionEra era = new ConnectionEra();
        EraRules rules = new EraRules();
        for (int id = 1; id <= 8 && data.remainingBytes() > 0; id++) {
            String method = data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeString(12);
            EraRules.Meta meta = EraRules.Meta.NONE;
            String metaVersion = null;
            ObjectNode params = null;
            if (data.consumeBoolean()) {
                params = NODES.objectNode();
                if (data.consumeBoolean()) {
                    params.set("protocolVersion", data.consumeBoolean() ? NODES.stringNode(version(data)) : NODES.numberNode(20250618));
                }
                int shape = data.consumeInt(0, 8);
                if (shape > 0) {
                    metaVersion = version(data);
                    meta = meta(params, shape, metaVersion);
                }
            }
            JsonRpcRequest request = new JsonRpcRequest(RequestId.of(id), method, params);
            EraRules.Expected expected = rules.admit(method, text(params, "protocolVersion"), meta, metaVersion);
            check(expected, era.admit(request), request);
            assertEquals(rules.pinned(), era.pinned(), () -> "pinned after " + request);
        }
    }

    private static String version(FuzzedDataProvider data) {
        return data.consumeBoolean() ? data.pickValue(VERSIONS) : data.consumeString(12);
    }

    /** Sets {@code params._meta} in one of eight shapes and says which kind of claim it makes. */
    private static EraRules.Meta meta(ObjectNode params, int shape, String version) {
        ObjectNode meta = NODES.objectNode();
        ObjectNode client = NODES.objectNode().put("name", "c").put("version", "1");
        switch (shape) {
            case 1 -> {
                params.put(MetaKeys.META, "not an object");
                return EraRules.Meta.NONE;
            }
            case 2 -> {
                params.set(MetaKeys.META, meta.put("progressToken", 1));
                return EraRules.Meta.NONE;
            }
            case 3 -> meta.set(MetaKeys.PROTOCOL_VERSION, NODES.numberNode(20260728));
            case 4 -> meta.put(MetaKeys.PROTOCOL_VERSION, version); // no capabilities
            case 5 -> meta.put(MetaKeys.PROTOCOL_VERSION, version).put(MetaKeys.CLIENT_CAPABILITIES, "none");
            case 6 -> {
                meta.put(MetaKeys.PROTOCOL_VERSION, version).putObject(MetaKeys.CLIENT_CAPABILITIES).put("x", 1);
                meta.put(MetaKeys.CLIENT_INFO, 5);
            }
            case 7 -> meta.put(MetaKeys.PROTOCOL_VERSION, version).putObject(MetaKeys.CLIENT_CAPABILITIES);
            default -> {
                meta.put(MetaKeys.PROTOCOL_VERSION, version).putObject(MetaKeys.CLIENT_CAPABILITIES);
                meta.set(MetaKeys.CLIENT_INFO, client);
            }
        }
        params.set(MetaKeys.META, meta);
        return shape >= 7 ? EraRules.Meta.WELL_FORMED : EraRules.Meta.MALFORMED;
    }

    private static Optional<String> text(JsonNode params, String member) {
        JsonNode v = params == null ? null : params.get(member);
        return v != null && v.isString() ? Optional.of(v.stringValue()) : Optional.empty();
    }

    private static void check(EraRules.Expected expected, ConnectionEra.Decision actual, JsonRpcRequest request) {
        if (expected instanceof EraRules.Expected.Serve serve) {
            assertEquals(new ConnectionEra.Decision.Serve(serve.era(), serve.version()), actual, () -> "for " + request);
            return;
        }
        EraRules.Expected.Refuse refuse = (EraRules.Expected.Refuse) expected;
        JsonRpcError error = assertInstanceOf(ConnectionEra.Decision.Refuse.class, actual, () -> "for " + request).error();
        assertEquals(request.id(), error.id());
        assertEquals(refuse.code(), error.error().code(), () -> error.error().message() + " for " + request);
        if (refuse.code() == McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION) {
            assertEquals(Optional.of(new UnsupportedProtocolVersion(refuse.supported(), refuse.requested())),
                    UnsupportedProtocolVersion.from(error), () -> "for " + request);
        }
    }
}
