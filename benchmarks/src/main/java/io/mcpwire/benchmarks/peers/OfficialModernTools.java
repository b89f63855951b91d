package io.mcpwire.benchmarks.peers;

import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The official MCP Java SDK 2.2's 2026-07-28 server ({@code io.modelcontextprotocol.modern.server.McpServer})
 * with the demo's {@code echo} and {@code payload} tools, written once for both of its transports
 * ({@link OfficialModernServer}, {@link OfficialModernBridgeServer}). It names no mcpwire class.
 */
final class OfficialModernTools {
    private OfficialModernTools() {
    }

    static McpServer server() {
        Map<String, McpSyncTool> tools = new LinkedHashMap<>();
        tool(tools, "echo", "Returns the text it is given.", Map.of("text", Map.of("type", "string")),
                arguments -> String.valueOf(arguments.get("text")));
        tool(tools, "payload", "Returns the given number of KiB of text.", Map.of("kib", Map.of("type", "integer")),
                arguments -> "x".repeat(((Number) arguments.get("kib")).intValue() * 1024));
        McpSyncToolRepository repository = new McpSyncToolRepository() {
            @Override
            public ToolsPage list(McpRequestContext ctx, String cursor) {
                return ToolsPage.of(tools.values().stream().map(McpSyncTool::definition).toList());
            }

            @Override
            public McpSyncTool find(McpRequestContext ctx, String name) {
                return tools.get(name);
            }
        };
        return McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder("official-modern-peer", "2.2.0").build())
                .feature(ToolsFeature.ofSync(repository))
                .build();
    }

    private static void tool(Map<String, McpSyncTool> tools, String name, String description, Map<String, Object> properties,
                             Function<Map<String, Object>, String> body) {
        McpSchema.Tool definition = McpSchema.Tool.builder(name, Map.of("type", "object", "properties", properties,
                "required", properties.keySet().stream().toList())).description(description).build();
        tools.put(name, McpSyncTool.of(definition, (ctx, request) -> McpSyncResponse.result(McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(body.apply(request.arguments())).build()).build())));
    }
}
