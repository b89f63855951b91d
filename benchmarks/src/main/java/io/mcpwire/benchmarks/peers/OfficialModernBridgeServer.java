package io.mcpwire.benchmarks.peers;

import io.mcpwire.sdkbridge.McpwireStdioMcpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;

/**
 * {@link OfficialModernServer} with its one line changed: the same server on mcpwire's
 * {@code McpwireStdioMcpTransport} ({@code official-modern-bridge}).
 */
public final class OfficialModernBridgeServer {
    private OfficialModernBridgeServer() {
    }

    public static void main(String[] args) {
        new McpwireStdioMcpTransport(OfficialModernTools.server(), McpJsonDefaults.getMapper()).start().block();
    }
}
