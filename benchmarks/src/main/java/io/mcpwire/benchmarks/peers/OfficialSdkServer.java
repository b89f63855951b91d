package io.mcpwire.benchmarks.peers;

import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.Arrays;
import java.util.List;

/**
 * The demo's three tools on the official MCP Java SDK (2.1.0) over its own
 * {@code StdioServerTransportProvider}, as a user writes it by default; {@code --immediate} adds
 * {@code immediateExecution(true)}; {@code --bridge} serves it over mcpwire's bridge instead (the
 * one line a user changes), otherwise as written.
 */
public final class OfficialSdkServer {
    private OfficialSdkServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        List<String> options = Arrays.asList(args);
        McpServerTransportProvider transport = options.contains("--bridge")
                ? new McpwireStdioServerTransportProvider(mapper) : new StdioServerTransportProvider(mapper);
        var spec = McpServer.sync(transport)
                .serverInfo("official-sdk-peer", "2.1.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tool(mapper, "echo", "Returns the text it is given.",
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}",
                                args1 -> String.valueOf(args1.get("text"))),
                        tool(mapper, "noisy", "Prints to stdout.", "{\"type\":\"object\",\"properties\":{}}", a -> {
                            System.out.println("noisy: System.out.println from a tool");
                            return "printed";
                        }),
                        tool(mapper, "payload", "Returns the given number of KiB of text.",
                                "{\"type\":\"object\",\"properties\":{\"kib\":{\"type\":\"integer\"}},\"required\":[\"kib\"]}",
                                a -> "x".repeat(((Number) a.get("kib")).intValue() * 1024)));
        if (options.contains("--immediate")) {
            spec.immediateExecution(true);
        }
        spec.build();
    }

    private static SyncToolSpecification tool(McpJsonMapper mapper, String name, String description, String schema,
                                              java.util.function.Function<java.util.Map<String, Object>, String> body) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder().name(name).description(description).inputSchema(mapper, schema).build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent(body.apply(request.arguments())).isError(false).build())
                .build();
    }
}
