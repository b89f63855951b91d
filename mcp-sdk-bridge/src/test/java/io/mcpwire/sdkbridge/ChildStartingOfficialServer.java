package io.mcpwire.sdkbridge;

import io.mcpwire.platform.test.harness.LingeringChildren;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * A server written with the official SDK over the bridge, with a tool that starts processes that
 * would outlive it ({@link LingeringChildren}) and a slow one. Run by {@link BridgeChildrenEndTest}.
 */
public final class ChildStartingOfficialServer {
    private ChildStartingOfficialServer() {
    }

    public static void main(String[] args) {
        McpServer.sync(new McpwireStdioServerTransportProvider())
                .serverInfo("child-starting-official", "1")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tool(LingeringChildren.TOOL, LingeringChildren::start), tool(LingeringChildren.SLOW_TOOL, LingeringChildren::slow))
                .build(); // main returns; the session keeps the JVM alive until it ends
    }

    private static SyncToolSpecification tool(String name, Callable<String> body) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder(name, Map.of("type", "object")).description(name).build())
                .callHandler((exchange, request) -> {
                    try {
                        return CallToolResult.builder().addTextContent(body.call()).build();
                    } catch (Exception e) {
                        return CallToolResult.builder().addTextContent(name + " failed: " + e).isError(true).build();
                    }
                })
                .build();
    }
}
