package io.mcpwire.protocol;

import java.util.List;
import java.util.Objects;

/**
 * The two ways MCP is spoken. A legacy connection opens with {@code initialize} and agrees one
 * version for the session; a modern one (2026-07-28 and later) names its version, client and
 * capabilities in every request's {@code _meta} and has no handshake.
 */
public enum ProtocolEra {
    /** Revisions up to 2025-11-25: the {@code initialize} handshake. */
    LEGACY,
    /** Revisions from 2026-07-28: per-request {@code _meta}, {@code server/discover}. */
    MODERN;

    /** The first modern revision. Revisions are ISO dates, so they order as text. */
    public static final String FIRST_MODERN_VERSION = "2026-07-28";

    /** The era a revision belongs to, known to this SDK or not. */
    public static ProtocolEra of(String version) {
        Objects.requireNonNull(version, "version");
        return version.compareTo(FIRST_MODERN_VERSION) >= 0 ? MODERN : LEGACY;
    }

    /** The revisions of this era this SDK speaks, newest first. */
    public List<String> versions() {
        return this == MODERN ? McpProtocol.MODERN_VERSIONS : McpProtocol.LEGACY_VERSIONS;
    }

    /** The era's name as the wire and reports spell it: {@code legacy} or {@code modern}. */
    public String wireName() {
        return this == MODERN ? "modern" : "legacy";
    }
}
