package io.mcpwire.sdkbridge;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * A server written with the official SDK 2.2's 2026-07-28 API, switched to mcpwire by its one line,
 * with tools that misbehave or take time: {@code noisy} prints to {@code System.out}, leaves bytes
 * unflushed in it and starts an {@code inheritIO()} child that writes to stdout and reads stdin;
 * {@code slow} takes 300 ms; {@code progress} streams three progress notifications before its
 * result; {@code echo} answers its text. With {@code --official} it serves on the SDK's own
 * {@code StdioMcpTransport}; with {@code --dual} a legacy server shares the connection
 * ({@link McpwireBothEras}); {@code --no-child} leaves out the child, for a run inside a test JVM.
 */
public final class NoisyModernServer {
    private NoisyModernServer() {
    }

    public static void main(String[] args) {
        List<String> options = List.of(args);
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        McpServer server = server(!options.contains("--no-child"), Flux.never());
        if (options.contains("--dual")) {
            io.modelcontextprotocol.server.McpServer.sync(McpwireBothEras.provider(server))
                    .serverInfo("noisy-modern", "1")
                    .capabilities(ServerCapabilities.builder().tools(true).build())
                    .tools(SyncToolSpecification.builder()
                            .tool(Tool.builder("echo", Map.of("type", "object")).description("answers its text").build())
                            .callHandler((exchange, request) -> CallToolResult.builder()
                                    .addTextContent(String.valueOf(request.arguments().get("text"))).build())
                            .build())
                    .build(); // main returns; the session keeps the JVM alive until end of input
            return;
        }
        if (options.contains("--official")) {
            new StdioMcpTransport(server, mapper).start().block();
        } else {
            new McpwireStdioMcpTransport(server, mapper).start().block(); // the one line: was new StdioMcpTransport(server, mapper)
        }
    }

    /** The modern server and its tools; {@code changes} feeds its subscriptions. */
    static McpServer server(boolean child, Flux<io.modelcontextprotocol.modern.server.feature.ServerChange> changes) {
        Map<String, McpSyncTool> tools = new LinkedHashMap<>();
        tool(tools, "echo", "answers its text", request -> text(String.valueOf(request.arguments().get("text"))));
        tool(tools, "noisy", "prints to stdout and starts an inheritIO() child", request -> {
            System.out.println("noisy: println under the official SDK's modern server");
            for (byte b : "noisy: unflushed".getBytes(StandardCharsets.UTF_8)) {
                System.out.write(b);
            }
            int exit = 0;
            try {
                if (child) {
                    exit = new ProcessBuilder("sh", "-c", "echo noisy: child stdout; cat").inheritIO().start().waitFor();
                }
            } catch (Exception e) {
                exit = -1;
            }
            return text("child exit " + exit);
        });
        tool(tools, "slow", "answers after 300 ms", request -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text("slept");
        });
        tools.put("progress", McpSyncTool.of(definition("progress", "three progress notifications, then the result"),
                (ctx, request) -> McpSyncResponse.streaming(notifier -> {
                    for (int i = 1; i <= 3; i++) {
                        notifier.progress(i, 3.0, "step " + i);
                    }
                    return McpSchema.CallToolResult.builder().addContent(McpSchema.TextContent.builder("done").build()).build();
                })));
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
                .serverInfo(McpSchema.Implementation.builder("noisy-modern", "1").build())
                .feature(ToolsFeature.ofSync(repository))
                .subscriptions(() -> changes)
                .build();
    }

    private static void tool(Map<String, McpSyncTool> tools, String name, String description,
                             Function<McpSchema.CallToolRequest, McpSchema.CallToolResult> call) {
        tools.put(name, McpSyncTool.of(definition(name, description), (ctx, request) -> McpSyncResponse.result(call.apply(request))));
    }

    private static McpSchema.Tool definition(String name, String description) {
        return McpSchema.Tool.builder(name, Map.of("type", "object")).description(description).build();
    }

    private static McpSchema.CallToolResult text(String text) {
        return McpSchema.CallToolResult.builder().addContent(McpSchema.TextContent.builder(text).build()).build();
    }
}
