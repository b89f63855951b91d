package io.mcpwire.benchmarks.peers;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;

/**
 * The demo's tools on the official MCP Java SDK 2.2's legacy server over its own
 * {@code StdioServerTransportProvider}, as a user writes it by default ({@code official});
 * {@code --immediate} adds {@code immediateExecution(true)} ({@code official-imm}).
 */
public final class OfficialSdkServer {
    private OfficialSdkServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper mapper = OfficialSdkTools.mapper();
        OfficialSdkTools.serve(new StdioServerTransportProvider(mapper), mapper, args);
    }
}
