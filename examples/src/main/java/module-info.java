/** A demo MCP server on mcpwire's stdio transport, and a client that shows the isolation. */
module io.mcpwire.examples {
    requires transitive io.mcpwire.stdio;

    exports io.mcpwire.examples;
}
