package io.mcpwire.protocol;

import io.mcpwire.jsonrpc.ErrorCodes;
import java.util.List;
import java.util.Optional;

/**
 * The rules of {@code docs/eras.md} for one dual-era connection, written plainly from the page
 * rather than from the code: what the era of each request is and what the connection answers.
 */
final class EraRules {
    /** What a request's {@code _meta} says of its era. */
    enum Meta {
        /** No protocol version in it (or no {@code _meta}). */
        NONE,
        /** A protocol version, but a member wrong: answered -32602. */
        MALFORMED,
        /** A well-formed claim of the given version. */
        WELL_FORMED
    }

    /** What the page says the connection does with a request. */
    sealed interface Expected {
        /** Served in {@code era}, in {@code version}. */
        record Serve(ProtocolEra era, String version) implements Expected {
        }

        /** Answered with an error of {@code code}; for -32022, with these versions and the one requested. */
        record Refuse(int code, List<String> supported, Optional<String> requested) implements Expected {
        }
    }

    private ProtocolEra pinned;
    private String agreed = McpProtocol.LATEST_LEGACY_VERSION;

    Optional<ProtocolEra> pinned() {
        return Optional.ofNullable(pinned);
    }

    Expected admit(String method, Optional<String> initializeVersion, Meta meta, String metaVersion) {
        boolean initialize = McpProtocol.INITIALIZE.equals(method);
        if (meta == Meta.MALFORMED) {
            return new Expected.Refuse(ErrorCodes.INVALID_PARAMS, List.of(), Optional.empty()); // "a malformed _meta gets -32602"
        }
        // A request is modern when its _meta names a version of the modern era, spoken or not.
        boolean modern = meta == Meta.WELL_FORMED && ProtocolEra.of(metaVersion) == ProtocolEra.MODERN;
        if (pinned == null) {
            if (initialize || !modern) { // "initialize, or any request without a modern _meta, pins the legacy era"
                return legacy(initialize, initializeVersion);
            }
            if (!McpProtocol.MODERN_VERSIONS.contains(metaVersion)) { // "-32022 with the supported list, and pins nothing"
                return unsupported(McpProtocol.MODERN_VERSIONS, Optional.of(metaVersion));
            }
            pinned = ProtocolEra.MODERN;
            return new Expected.Serve(ProtocolEra.MODERN, metaVersion);
        }
        if (pinned == ProtocolEra.LEGACY) {
            if (modern) { // "after initialize, a request that names a modern version is refused with -32022 listing the version agreed"
                return unsupported(List.of(agreed), Optional.of(metaVersion));
            }
            return legacy(initialize, initializeVersion);
        }
        if (initialize) { // "after the probe, initialize is refused with -32022 listing the modern versions"
            return unsupported(McpProtocol.MODERN_VERSIONS, initializeVersion);
        }
        if (meta == Meta.NONE) { // "a request without a version is refused the same way"
            return unsupported(McpProtocol.MODERN_VERSIONS, Optional.empty());
        }
        if (!McpProtocol.MODERN_VERSIONS.contains(metaVersion)) {
            return unsupported(McpProtocol.MODERN_VERSIONS, Optional.of(metaVersion));
        }
        return new Expected.Serve(ProtocolEra.MODERN, metaVersion);
    }

    private Expected legacy(boolean initialize, Optional<String> initializeVersion) {
        if (initialize) { // initialize answers the client's legacy version when spoken, else the newest
            agreed = McpProtocol.negotiate(initializeVersion.orElse(""));
        }
        pinned = ProtocolEra.LEGACY;
        return new Expected.Serve(ProtocolEra.LEGACY, agreed);
    }

    private static Expected unsupported(List<String> supported, Optional<String> requested) {
        return new Expected.Refuse(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, supported, requested);
    }
}
