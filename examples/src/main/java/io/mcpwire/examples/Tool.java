package io.mcpwire.examples;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One MCP tool of the demo server. */
public interface Tool {
    /** The tool's name in {@code tools/list} and {@code tools/call}. */
    String name();

    /** What it does, for the client's model. */
    String description();

    /** A JSON Schema object for its arguments. */
    ObjectNode inputSchema();

    /**
     * Runs the tool.
     *
     * @param arguments the call's arguments, an object (empty when none were given)
     * @return the text the tool answers with
     * @throws IllegalArgumentException when the arguments are invalid
     */
    String call(JsonNode arguments) throws Exception;
}
