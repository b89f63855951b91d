package io.mcpwire.sdkbridge;

import io.mcpwire.transport.StdioTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import java.util.Objects;

/**
 * The official SDK's legacy server and its 2026-07-28 server
 * ({@code io.modelcontextprotocol.modern.server.McpServer}, SDK 2.2) on one stdio connection, over
 * mcpwire. The connection's first request decides which of the two serves it, for good:
 * {@code initialize}, or any request without a modern version, reaches the legacy server;
 * {@code server/discover}, or a request whose {@code _meta} names a 2026-07-28 version, the modern
 * one. The provider it gives replaces {@code new McpwireStdioServerTransportProvider()} in the
 * legacy server's one line:
 *
 * <pre>{@code
 * McpServer modern = McpServer.builder()...build();                          // the 2026-07-28 server
 * McpSyncServer legacy = io.modelcontextprotocol.server.McpServer.sync(McpwireBothEras.provider(modern))
 *         .serverInfo(...).tools(...).build();
 * }</pre>
 *
 * <p>A class of its own, not a method of the legacy provider, so that the provider names no type
 * of SDK 2.2 and still loads, and reflects, on SDK 0.17 to 2.1 (Spring introspects it).
 */
public final class McpwireBothEras {
    private McpwireBothEras() {
    }

    /** A legacy provider that also serves {@code modernServer}: claims the standard streams now, with the SDK's default JSON mapper. */
    public static McpwireStdioServerTransportProvider provider(McpRequestManager modernServer) {
        return provider(modernServer, McpJsonDefaults.getMapper());
    }

    /** As {@link #provider(McpRequestManager)}, with {@code jsonMapper} for both servers' messages. */
    public static McpwireStdioServerTransportProvider provider(McpRequestManager modernServer, McpJsonMapper jsonMapper) {
        return provider(modernServer, jsonMapper, StdioTransport.create());
    }

    /** As {@link #provider(McpRequestManager, McpJsonMapper)}, over a transport built by the caller. */
    public static McpwireStdioServerTransportProvider provider(McpRequestManager modernServer, McpJsonMapper jsonMapper,
                                                               StdioTransport transport) {
        Objects.requireNonNull(modernServer, "modernServer");
        McpwireStdioServerTransportProvider legacy = new McpwireStdioServerTransportProvider(jsonMapper, transport);
        legacy.serveModernToo(new ModernRequests(modernServer, jsonMapper, transport));
        return legacy;
    }
}
