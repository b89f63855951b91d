/** A demo MCP server on mcpwire's stdio transport, and a client that shows the isolation. */
module io.mcpwire.examples {
    requires transitive io.mcpwire.transport;
    // The demo client speaks through the wire checker's client; the server never resolves it (./demo adds it).
    requires static io.mcpwire.check;

    exports io.mcpwire.examples;
}
