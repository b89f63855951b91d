/**
 * The MCP stdio transport ({@link io.mcpwire.transport.StdioTransport}): newline-delimited JSON-RPC
 * ({@code io.mcpwire.api}) over the claim of the standard streams ({@code io.mcpwire.stdio}).
 */
module io.mcpwire.transport {
    requires transitive io.mcpwire.api;
    requires transitive io.mcpwire.stdio;

    exports io.mcpwire.transport;
}
