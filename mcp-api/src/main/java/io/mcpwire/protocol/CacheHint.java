package io.mcpwire.protocol;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How long and how widely a client may cache a cacheable result ({@code server/discover}, the
 * list methods, {@code resources/read}): the {@code ttlMs} and {@code cacheScope} members that
 * the modern era requires on them.
 *
 * @param ttlMs how many milliseconds the result stays fresh; 0 means stale at once
 * @param scope who may share the cached result
 */
public record CacheHint(long ttlMs, Scope scope) {
    /** Validates the members. */
    public CacheHint {
        if (ttlMs < 0) {
            throw new IllegalArgumentException("ttlMs must not be negative: " + ttlMs);
        }
        Objects.requireNonNull(scope, "scope");
    }

    /** Who may share a cached result, as HTTP's {@code Cache-Control: public} and {@code private}. */
    public enum Scope {
        /** Holds nothing of one user: any client or intermediary may cache and share it. */
        PUBLIC,
        /** May hold a user's data: cached only within the same authorization context. */
        PRIVATE;

        /** As the wire spells it. */
        public String wire() {
            return this == PUBLIC ? "public" : "private";
        }
    }

    /** Writes the two members into {@code result}; returns it. */
    public ObjectNode writeTo(ObjectNode result) {
        return result.put("ttlMs", ttlMs).put("cacheScope", scope.wire());
    }

    /** Reads the two members of {@code result}; empty unless both are there and valid. */
    public static Optional<CacheHint> of(JsonNode result) {
        JsonNode ttl = result == null ? null : result.get("ttlMs");
        JsonNode scope = result == null ? null : result.get("cacheScope");
        if (ttl == null || !ttl.isIntegralNumber() || ttl.longValue() < 0 || scope == null || !scope.isString()) {
            return Optional.empty();
        }
        for (Scope s : Scope.values()) {
            if (s.wire().equals(scope.stringValue())) {
                return Optional.of(new CacheHint(ttl.longValue(), s));
            }
        }
        return Optional.empty();
    }
}
