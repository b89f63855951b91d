package io.mcpwire.quarkus;

import io.quarkiverse.mcp.server.runtime.McpRequestImpl;

/** One message of the stdio session, as Quarkus MCP handles it: no security, no HTTP request context. */
public final class McpwireRequest extends McpRequestImpl<McpwireConnection> {

    McpwireRequest(String serverName, Object json, McpwireConnection connection) {
        super(serverName, json, connection, connection, null, null, null);
    }
}
