package io.mcpwire.protocol;

import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.RequestId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The modern era's answer to a request in a protocol version the server does not speak (code
 * {@value McpErrorCodes#UNSUPPORTED_PROTOCOL_VERSION}): the versions it does speak, so that the
 * client can pick one and retry.
 *
 * @param supported the versions the server speaks, newest first
 * @param requested the version the request named; empty when it named none
 */
public record UnsupportedProtocolVersion(List<String> supported, Optional<String> requested) {
    /** Copies the list. */
    public UnsupportedProtocolVersion {
        supported = List.copyOf(supported);
        Objects.requireNonNull(requested, "requested");
    }

    /** The error response to request {@code id}, with {@code why} after the standard message. */
    public JsonRpcError toError(RequestId id, String why) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        supported.forEach(data.putArray("supported")::add);
        requested.ifPresent(v -> data.put("requested", v));
        String message = "Unsupported protocol version"
                + requested.map(v -> " " + JsonRpcError.quote(v)).orElse("") + ": " + why
                + "; supported: " + String.join(", ", supported);
        return new JsonRpcError(id, new JsonRpcError.ErrorObject(McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, message, data));
    }

    /** Reads one from an error response; empty unless it has the code and a list of supported versions. */
    public static Optional<UnsupportedProtocolVersion> from(JsonRpcError error) {
        JsonNode data = error.error().data();
        if (error.error().code() != McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION || data == null || !data.path("supported").isArray()) {
            return Optional.empty();
        }
        List<String> supported = new ArrayList<>();
        data.get("supported").forEach(v -> {
            if (v.isString()) {
                supported.add(v.stringValue());
            }
        });
        JsonNode requested = data.get("requested");
        return Optional.of(new UnsupportedProtocolVersion(supported,
                requested != null && requested.isString() ? Optional.of(requested.stringValue()) : Optional.empty()));
    }
}
