package io.mcpwire.protocol;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The era of one dual-era connection, which its first request that names one pins for good:
 * {@code initialize} (or any request without a modern {@code _meta}) pins the legacy era; a
 * request whose {@code _meta} names a modern version this server speaks, such as the
 * {@code server/discover} probe that hosts send first, pins the modern era. Every request passes
 * through {@link #admit} before it is served.
 *
 * <p>A connection never mixes eras. On a modern connection an {@code initialize}, or a request
 * without a protocol version, is refused with {@link UnsupportedProtocolVersion} listing the
 * modern versions; so is a modern request on a legacy connection, listing the legacy ones. A
 * modern request in a version the server does not speak gets the same error and pins nothing, so
 * the client can retry in one it does; a malformed {@code _meta} gets -32602. Thread-safe.
 */
public final class ConnectionEra {
    /** What to do with a request. */
    public sealed interface Decision {
        /**
         * Serve it in {@code era}.
         *
         * @param era     the connection's era
         * @param version the request's own version (modern), or the one {@code initialize} agreed
         *                (legacy; the newest legacy one before any was agreed)
         */
        record Serve(ProtocolEra era, String version) implements Decision {
        }

        /**
         * Answer it with {@code error} and do nothing else.
         *
         * @param error the answer
         */
        record Refuse(JsonRpcError error) implements Decision {
        }
    }

    private final List<String> modern = ProtocolEra.MODERN.versions();
    private ProtocolEra pinned; // null until the first request that names an era
    private String legacyVersion = McpProtocol.LATEST_LEGACY_VERSION;

    /** A connection that speaks {@link McpProtocol#MODERN_VERSIONS} and {@link McpProtocol#LEGACY_VERSIONS}. */
    public ConnectionEra() {
    }

    /** The era pinned so far; empty before the first request that names one. */
    public synchronized Optional<ProtocolEra> pinned() {
        return Optional.ofNullable(pinned);
    }

    /** Decides how to serve {@code request}, pinning the era if this is the first that names one. */
    public synchronized Decision admit(JsonRpcRequest request) {
        RequestMeta.Claim claim = RequestMeta.read(request.params());
        boolean initialize = McpProtocol.INITIALIZE.equals(request.method());
        if (claim instanceof RequestMeta.Claim.Invalid invalid) {
            return new Decision.Refuse(JsonRpcError.of(request.id(), ErrorCodes.INVALID_PARAMS,
                    "Invalid _meta: " + invalid.key() + " " + invalid.problem()));
        }
        // A _meta that names a version of the legacy era is no modern claim: it pins the legacy era as none does.
        boolean modernClaim = claim instanceof RequestMeta.Claim.Present named
                && ProtocolEra.of(named.meta().protocolVersion()) == ProtocolEra.MODERN;
        if (pinned == ProtocolEra.LEGACY || pinned == null && (initialize || !modernClaim)) {
            return legacy(request, claim, initialize);
        }
        if (initialize) {
            return new Decision.Refuse(new UnsupportedProtocolVersion(modern, text(request.params(), "protocolVersion"))
                    .toError(request.id(), "this connection speaks the modern era, which has no initialize"));
        }
        if (!(claim instanceof RequestMeta.Claim.Present present)) {
            return new Decision.Refuse(new UnsupportedProtocolVersion(modern, Optional.empty()).toError(request.id(),
                    "the request names no " + MetaKeys.PROTOCOL_VERSION + " in its _meta, and this connection speaks the modern era"));
        }
        String version = present.meta().protocolVersion();
        if (!modern.contains(version)) {
            return new Decision.Refuse(new UnsupportedProtocolVersion(modern, Optional.of(version))
                    .toError(request.id(), "this server does not speak it"));
        }
        pinned = ProtocolEra.MODERN;
        return new Decision.Serve(ProtocolEra.MODERN, version);
    }

    private Decision legacy(JsonRpcRequest request, RequestMeta.Claim claim, boolean initialize) {
        if (pinned == ProtocolEra.LEGACY && claim instanceof RequestMeta.Claim.Present present
                && ProtocolEra.of(present.meta().protocolVersion()) == ProtocolEra.MODERN) {
            return new Decision.Refuse(new UnsupportedProtocolVersion(List.of(legacyVersion), Optional.of(present.meta().protocolVersion()))
                    .toError(request.id(), "this connection speaks the legacy era"));
        }
        if (initialize) {
            legacyVersion = McpProtocol.negotiate(text(request.params(), "protocolVersion").orElse(""));
        }
        pinned = ProtocolEra.LEGACY;
        return new Decision.Serve(ProtocolEra.LEGACY, legacyVersion);
    }

    private static Optional<String> text(JsonNode params, String member) {
        JsonNode v = params == null ? null : params.get(member);
        return v != null && v.isString() ? Optional.of(v.stringValue()) : Optional.empty();
    }
}
