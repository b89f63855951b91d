/** The MCP stdio transport, served over the claim of the standard streams. */
module io.mcpwire.stdio {
    requires transitive io.mcpwire.api;
    requires transitive io.mcpwire.claim;

    exports io.mcpwire.stdio;
}
