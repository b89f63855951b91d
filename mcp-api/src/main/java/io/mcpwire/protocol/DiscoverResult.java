package io.mcpwire.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answer to {@code server/discover}: the versions a modern server speaks, its capabilities
 * and identity, and how long a client may cache all of it.
 *
 * @param supportedVersions the modern revisions the server speaks, newest first
 * @param capabilities      the server's capabilities, an object
 * @param serverInfo        the server's name and version, sent in the result's {@code _meta}
 * @param instructions      guidance for the model, when the server has any
 * @param cache             how long and how widely the result may be cached
 */
public record DiscoverResult(List<String> supportedVersions, ObjectNode capabilities, Optional<Implementation> serverInfo,
                             Optional<String> instructions, CacheHint cache) {
    /** Copies the list; validates the members. */
    public DiscoverResult {
        supportedVersions = List.copyOf(supportedVersions);
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(serverInfo, "serverInfo");
        Objects.requireNonNull(instructions, "instructions");
        Objects.requireNonNull(cache, "cache");
    }

    /** The result object, complete ({@link ModernResult}: {@code resultType}, the server's identity, the cache hint). */
    public ObjectNode toJson() {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        supportedVersions.forEach(result.putArray("supportedVersions")::add);
        result.set("capabilities", capabilities.deepCopy());
        instructions.ifPresent(i -> result.put("instructions", i));
        return new ModernResult(serverInfo, cache).complete(McpProtocol.SERVER_DISCOVER, result);
    }

    /**
     * Reads one.
     *
     * @return the result
     * @throws IllegalArgumentException naming the member at fault
     */
    public static DiscoverResult fromJson(JsonNode result) {
        JsonNode versions = result == null ? null : result.get("supportedVersions");
        if (versions == null || !versions.isArray() || versions.isEmpty()) {
            throw new IllegalArgumentException("supportedVersions must be a non-empty array of versions");
        }
        List<String> list = new ArrayList<>();
        for (JsonNode v : versions) {
            if (!v.isString()) {
                throw new IllegalArgumentException("supportedVersions holds a " + v.getNodeType() + ", not a version");
            }
            list.add(v.stringValue());
        }
        JsonNode capabilities = result.get("capabilities");
        if (capabilities == null || !capabilities.isObject()) {
            throw new IllegalArgumentException("capabilities must be an object");
        }
        CacheHint cache = CacheHint.of(result).orElseThrow(() ->
                new IllegalArgumentException("ttlMs (a whole number of ms, 0 or more) and cacheScope (public or private) are required"));
        JsonNode instructions = result.get("instructions");
        return new DiscoverResult(list, (ObjectNode) capabilities,
                Implementation.fromJson(result.path(MetaKeys.META).get(MetaKeys.SERVER_INFO)),
                instructions != null && instructions.isString() ? Optional.of(instructions.stringValue()) : Optional.empty(), cache);
    }
}
