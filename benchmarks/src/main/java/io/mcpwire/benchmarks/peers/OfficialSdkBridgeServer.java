package io.mcpwire.benchmarks.peers;

import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * {@link OfficialSdkServer} with its one line changed: the same server over mcpwire's
 * {@code McpwireStdioServerTransportProvider} ({@code official-bridge}, and with
 * {@code --immediate} {@code official-imm-bridge}).
 */
public final class OfficialSdkBridgeServer {
    private OfficialSdkBridgeServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper mapper = OfficialSdkTools.mapper();
        OfficialSdkTools.serve(new McpwireStdioServerTransportProvider(mapper), mapper, args);
    }
}
