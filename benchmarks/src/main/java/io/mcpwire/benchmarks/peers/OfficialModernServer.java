package io.mcpwire.benchmarks.peers;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;

/** The official SDK 2.2's 2026-07-28 server on the SDK's own {@code StdioMcpTransport} ({@code official-modern}). */
public final class OfficialModernServer {
    private OfficialModernServer() {
    }

    public static void main(String[] args) {
        new StdioMcpTransport(OfficialModernTools.server(), McpJsonDefaults.getMapper()).start().block();
    }
}
