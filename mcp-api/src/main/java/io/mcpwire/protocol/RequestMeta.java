package io.mcpwire.protocol;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a modern-era request says of itself in {@code params._meta}: its protocol version, the
 * client's capabilities for this request, and who the client is.
 *
 * @param protocolVersion    the revision the request is spoken in
 * @param clientCapabilities the client's capabilities for this request, an object
 * @param clientInfo         the client's name and version, when it gave them
 */
public record RequestMeta(String protocolVersion, ObjectNode clientCapabilities, Optional<Implementation> clientInfo) {
    /** Validates the members. */
    public RequestMeta {
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(clientCapabilities, "clientCapabilities");
        Objects.requireNonNull(clientInfo, "clientInfo");
    }

    /** The meta of a client named {@code client} with no optional capabilities. */
    public static RequestMeta of(String protocolVersion, Implementation client) {
        return new RequestMeta(protocolVersion, JsonNodeFactory.instance.objectNode(), Optional.of(client));
    }

    /** The {@code _meta} object. */
    public ObjectNode toJson() {
        ObjectNode meta = JsonNodeFactory.instance.objectNode().put(MetaKeys.PROTOCOL_VERSION, protocolVersion);
        clientInfo.ifPresent(c -> meta.set(MetaKeys.CLIENT_INFO, c.toJson()));
        meta.set(MetaKeys.CLIENT_CAPABILITIES, clientCapabilities.deepCopy());
        return meta;
    }

    /** What a request's params claim about its era. */
    public sealed interface Claim {
        /** No protocol version in {@code _meta}: a legacy-era request, or a modern one missing it. */
        record None() implements Claim {
        }

        /**
         * A protocol version is claimed, but the meta is malformed.
         *
         * @param key     the {@code _meta} key at fault
         * @param problem what is wrong with it
         */
        record Invalid(String key, String problem) implements Claim {
        }

        /**
         * A well-formed modern-era claim.
         *
         * @param meta what it says
         */
        record Present(RequestMeta meta) implements Claim {
        }
    }

    /** Reads the claim of a request's {@code params} (which may be null). */
    public static Claim read(JsonNode params) {
        JsonNode meta = params == null ? null : params.get(MetaKeys.META);
        if (meta == null || !meta.isObject() || !meta.has(MetaKeys.PROTOCOL_VERSION)) {
            return new Claim.None();
        }
        JsonNode version = meta.get(MetaKeys.PROTOCOL_VERSION);
        if (!version.isString()) {
            return new Claim.Invalid(MetaKeys.PROTOCOL_VERSION, "must be a string, not " + version.getNodeType());
        }
        JsonNode capabilities = meta.get(MetaKeys.CLIENT_CAPABILITIES);
        if (capabilities == null || !capabilities.isObject()) {
            return new Claim.Invalid(MetaKeys.CLIENT_CAPABILITIES, capabilities == null
                    ? "is required (an empty object declares no optional capability)" : "must be an object, not " + capabilities.getNodeType());
        }
        JsonNode info = meta.get(MetaKeys.CLIENT_INFO);
        Optional<Implementation> client = Implementation.fromJson(info);
        if (info != null && client.isEmpty()) {
            return new Claim.Invalid(MetaKeys.CLIENT_INFO, "must be an object with string name and version");
        }
        return new Claim.Present(new RequestMeta(version.stringValue(), (ObjectNode) capabilities, client));
    }
}
