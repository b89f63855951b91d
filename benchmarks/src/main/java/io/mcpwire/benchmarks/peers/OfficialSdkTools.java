package io.mcpwire.benchmarks.peers;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The legacy-era server of the official MCP Java SDK 2.2 with the demo's tools, written once for
 * both of its transports ({@link OfficialSdkServer}, {@link OfficialSdkBridgeServer}), so that the
 * two peers of a pair run the same server code. It names no mcpwire class: the SDK's own peer runs
 * on a class path without mcpwire.
 */
final class OfficialSdkTools {
    private OfficialSdkTools() {
    }

    /** Builds the server over {@code transport}, in immediate mode when the arguments say {@code --immediate}; it serves until end of input. */
    static void serve(McpServerTransportProvider transport, McpJsonMapper mapper, String[] args) {
        var spec = McpServer.sync(transport)
                .serverInfo("official-sdk-peer", "2.2.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tool(mapper, "echo", "Returns the text it is given.",
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}",
                                a -> String.valueOf(a.get("text"))),
                        tool(mapper, "noisy", "Prints to stdout.", "{\"type\":\"object\",\"properties\":{}}", a -> {
                            System.out.println("noisy: System.out.println from a tool");
                            return "printed";
                        }),
                        tool(mapper, "payload", "Returns the given number of KiB of text.",
                                "{\"type\":\"object\",\"properties\":{\"kib\":{\"type\":\"integer\"}},\"required\":[\"kib\"]}",
                                a -> "x".repeat(((Number) a.get("kib")).intValue() * 1024)));
        if (List.of(args).contains("--immediate")) {
            spec.immediateExecution(true);
        }
        spec.build(); // main returns; the session keeps the JVM alive until end of input
    }

    static McpJsonMapper mapper() {
        return McpJsonDefaults.getMapper();
    }

    private static SyncToolSpecification tool(McpJsonMapper mapper, String name, String description, String schema,
                                              Function<Map<String, Object>, String> body) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder().name(name).description(description).inputSchema(mapper, schema).build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent(body.apply(request.arguments())).isError(false).build())
                .build();
    }
}
