package io.mcpwire.protocol;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every complete result of the modern era carries besides the method's own members, put in
 * one place: {@code resultType} {@code complete}, the server's identity in {@code _meta}
 * ({@code io.modelcontextprotocol/serverInfo}), and, on the results the specification makes
 * cacheable ({@code server/discover}, the list methods, {@code resources/read}), the cache hint
 * ({@code ttlMs}, {@code cacheScope}). A server builds one and passes each method's members through
 * {@link #complete}.
 *
 * @param serverInfo the server's name and version; empty to leave {@code _meta} without it
 * @param cache      the hint for cacheable results that do not set their own
 */
public record ModernResult(Optional<Implementation> serverInfo, CacheHint cache) {
    /** The methods whose results are {@code CacheableResult}s in the 2026-07-28 schema. */
    public static final Set<String> CACHEABLE = Set.of(McpProtocol.SERVER_DISCOVER, McpProtocol.TOOLS_LIST,
            McpProtocol.PROMPTS_LIST, McpProtocol.RESOURCES_LIST, McpProtocol.RESOURCES_TEMPLATES_LIST, McpProtocol.RESOURCES_READ);

    /** Validates the members. */
    public ModernResult {
        Objects.requireNonNull(serverInfo, "serverInfo");
        Objects.requireNonNull(cache, "cache");
    }

    /** For a server called {@code serverInfo}, caching as {@code cache} says. */
    public ModernResult(Implementation serverInfo, CacheHint cache) {
        this(Optional.of(serverInfo), cache);
    }

    /**
     * Makes {@code members}, the result of {@code method}, complete: {@code resultType}, the server's
     * identity in {@code _meta} (beside what {@code _meta} already holds), and the cache hint when
     * the method is cacheable and {@code members} has no valid one of its own. Returns {@code members}.
     */
    public ObjectNode complete(String method, ObjectNode members) {
        members.put(ResultType.MEMBER, ResultType.COMPLETE.wire());
        serverInfo.ifPresent(info -> meta(members).set(MetaKeys.SERVER_INFO, info.toJson()));
        if (CACHEABLE.contains(method) && CacheHint.of(members).isEmpty()) {
            cache.writeTo(members);
        }
        return members;
    }

    private static ObjectNode meta(ObjectNode result) {
        JsonNode meta = result.get(MetaKeys.META);
        return meta instanceof ObjectNode object ? object : result.putObject(MetaKeys.META);
    }
}
