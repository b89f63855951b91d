/**
 * A transport provider for the official MCP Java SDK ({@code io.modelcontextprotocol.sdk:mcp})
 * that serves over mcpwire's stream claim and stdio transport: a server built with
 * {@code McpServer.sync(...)} or {@code async(...)} swaps {@code StdioServerTransportProvider} for
 * {@link io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider} and changes nothing else.
 */
module io.mcpwire.sdkbridge {
    requires transitive io.mcpwire.transport;
    requires transitive io.modelcontextprotocol.sdk.mcp.core;
    requires reactor.core;
    requires org.reactivestreams;
    // The official SDK's jars are automatic modules and cannot say that they need these explicit
    // modules; requiring them here resolves them, so that the SDK works on the module path as it is.
    requires org.slf4j;
    requires com.networknt.schema;

    exports io.mcpwire.sdkbridge;
}
