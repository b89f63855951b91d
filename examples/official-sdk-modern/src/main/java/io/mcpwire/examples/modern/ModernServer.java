package io.mcpwire.examples.modern;

import io.mcpwire.sdkbridge.McpwireStdioMcpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.util.List;

/**
 * A server on the official MCP Java SDK 2.2's 2026-07-28 API ({@link Tools}), served over mcpwire
 * by the one line below. With {@code sdk-transport} the same server runs on the SDK's own
 * {@code StdioMcpTransport}, to show what mcpwire keeps off the wire; with {@code dual},
 * {@link DualEraServer} serves it beside a legacy server on one connection.
 */
public final class ModernServer {
    private ModernServer() {
    }

    public static void main(String[] args) {
        List<String> options = List.of(args);
        if (options.contains("dual")) {
            DualEraServer.main(args);
            return;
        }
        McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
        McpServer server = Tools.modernServer();
        if (options.contains("sdk-transport")) {
            new StdioMcpTransport(server, jsonMapper).start().block();
        } else {
            new McpwireStdioMcpTransport(server, jsonMapper).start().block(); // was: new StdioMcpTransport(server, jsonMapper)
        }
    }
}
