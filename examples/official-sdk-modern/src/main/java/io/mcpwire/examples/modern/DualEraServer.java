package io.mcpwire.examples.modern;

import io.mcpwire.sdkbridge.McpwireBothEras;
import io.modelcontextprotocol.server.McpServer;

/**
 * The same tools in both protocol eras from one process: the official SDK's legacy server, whose
 * provider ({@code McpwireBothEras}) also serves the 2026-07-28 server. The connection's first request decides:
 * {@code initialize} reaches the legacy server, {@code server/discover} the modern one.
 */
public final class DualEraServer {
    private DualEraServer() {
    }

    public static void main(String[] args) {
        McpServer.sync(McpwireBothEras.provider(Tools.modernServer())) // was: new McpwireStdioServerTransportProvider()
                .serverInfo(Tools.NAME, Tools.VERSION)
                .capabilities(io.modelcontextprotocol.spec.McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(Tools.legacyTools())
                .build(); // main returns; the session keeps the JVM alive until end of input
    }
}
