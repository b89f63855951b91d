package io.mcpwire.sdkbridge;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A server written with the official SDK, switched to the bridge by its one line, with a tool that
 * misbehaves: prints to {@code System.out}, leaves bytes unflushed in it, and starts an
 * {@code inheritIO()} child that writes to stdout and reads stdin. Run by {@link BridgeIsolationTest};
 * with {@code --official} the same server runs on the SDK's own stdio transport (CI's
 * mcpwire-check run catches what its tool prints). {@code --no-child} leaves out the child, for a
 * run inside a test JVM, whose real descriptors a child would inherit. Its {@code spill} tool prints
 * 1 MiB to {@code System.out}, then to {@code System.err}, for {@link BridgeUnreadStderrTest}.
 */
public final class NoisyOfficialServer {
    private NoisyOfficialServer() {
    }

    public static void main(String[] args) {
        boolean child = !List.of(args).contains("--no-child");
        McpServerTransportProvider transport = List.of(args).contains("--official")
                ? new StdioServerTransportProvider(McpJsonDefaults.getMapper())
                : new McpwireStdioServerTransportProvider(); // the one line: was new StdioServerTransportProvider(mapper)
        McpServer.sync(transport)
                .serverInfo("noisy-official", "1")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(SyncToolSpecification.builder()
                        .tool(Tool.builder("noisy", Map.of("type", "object")).description("misbehaves").build())
                        .callHandler((exchange, request) -> {
                            System.out.println("noisy: println under the official SDK");
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
                            return CallToolResult.builder().addTextContent("child exit " + exit).build();
                        })
                        .build(),
                        SyncToolSpecification.builder()
                        .tool(Tool.builder("spill", Map.of("type", "object")).description("prints 1 MiB to stdout, then to stderr").build())
                        .callHandler((exchange, request) -> {
                            String line = "spill: a line of stray output, 64 bytes long, 0123456789abcdef.\n";
                            for (int i = 0; i < 16 * 1024; i++) {
                                System.out.print(line);
                            }
                            System.out.flush();
                            for (int i = 0; i < 16 * 1024; i++) {
                                System.err.print(line);
                            }
                            System.err.flush();
                            return CallToolResult.builder().addTextContent("printed 1024 KiB to stdout and to stderr").build();
                        })
                        .build())
                .build(); // main returns; the session keeps the JVM alive until end of input
    }
}
