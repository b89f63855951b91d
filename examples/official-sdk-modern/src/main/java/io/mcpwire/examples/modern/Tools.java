package io.mcpwire.examples.modern;

import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The example's tools, the same in both eras: {@code echo} returns its text, {@code print} prints
 * with {@code System.out.println}, {@code child} starts an {@code inheritIO()} child that writes
 * to stdout, {@code slow} answers after 300 ms.
 */
final class Tools {
    static final String NAME = "official-sdk-modern";
    static final String VERSION = "0.1.0";

    private Tools() {
    }

    /** What each tool does, given its arguments. */
    private static final Map<String, Function<Map<String, Object>, String>> ACTIONS = actions();

    private static Map<String, Function<Map<String, Object>, String>> actions() {
        Map<String, Function<Map<String, Object>, String>> actions = new LinkedHashMap<>();
        actions.put("echo", arguments -> String.valueOf(arguments == null ? null : arguments.get("text")));
        actions.put("print", arguments -> {
            System.out.println("official-sdk-modern: println from a tool");
            return "printed";
        });
        actions.put("child", arguments -> {
            try {
                return "the child exited " + new ProcessBuilder(childCommand()).inheritIO().start().waitFor();
            } catch (Exception e) {
                return "the child failed: " + e;
            }
        });
        actions.put("slow", arguments -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "slept 300 ms";
        });
        return actions;
    }

    private static List<String> childCommand() {
        return System.getProperty("os.name").startsWith("Windows")
                ? List.of("cmd", "/c", "echo official-sdk-modern: a child's stdout")
                : List.of("sh", "-c", "echo \"official-sdk-modern: a child's stdout\"");
    }

    /** The 2026-07-28 server with the tools. */
    static McpServer modernServer() {
        Map<String, McpSyncTool> tools = new LinkedHashMap<>();
        ACTIONS.forEach((name, action) -> tools.put(name, McpSyncTool.of(
                McpSchema.Tool.builder(name, Map.of("type", "object", "properties",
                        Map.of("text", Map.of("type", "string")))).description(name).build(),
                (ctx, request) -> McpSyncResponse.result(McpSchema.CallToolResult.builder()
                        .addContent(McpSchema.TextContent.builder(action.apply(request.arguments())).build()).build()))));
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
                .serverInfo(McpSchema.Implementation.builder(NAME, VERSION).build())
                .feature(ToolsFeature.ofSync(repository))
                .build();
    }

    /** The same tools for the legacy server. */
    static List<SyncToolSpecification> legacyTools() {
        return ACTIONS.entrySet().stream().map(tool -> SyncToolSpecification.builder()
                .tool(Tool.builder(tool.getKey(), Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
                        .description(tool.getKey()).build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent(tool.getValue().apply(request.arguments())).build())
                .build()).toList();
    }
}
