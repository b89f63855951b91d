package io.mcpwire.protocol;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client's or server's name and version, as {@code clientInfo} and {@code serverInfo} carry it.
 *
 * @param name    the software's name
 * @param version its version
 */
public record Implementation(String name, String version) {
    /** Validates the members. */
    public Implementation {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
    }

    /** The JSON object. */
    public ObjectNode toJson() {
        return JsonNodeFactory.instance.objectNode().put("name", name).put("version", version);
    }

    /** Reads one; empty unless {@code node} is an object with string {@code name} and {@code version}. */
    public static Optional<Implementation> fromJson(JsonNode node) {
        if (node == null || !node.isObject() || !node.path("name").isString() || !node.path("version").isString()) {
            return Optional.empty();
        }
        return Optional.of(new Implementation(node.get("name").stringValue(), node.get("version").stringValue()));
    }
}
