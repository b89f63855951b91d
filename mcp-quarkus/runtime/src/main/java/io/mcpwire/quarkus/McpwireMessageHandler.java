package io.mcpwire.quarkus;

import io.mcpwire.transport.StdioTransport;
import io.quarkiverse.mcp.server.InitialCheck;
import io.quarkiverse.mcp.server.InitialRequest.Transport;
import io.quarkiverse.mcp.server.McpServer;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpMessageHandler;
import io.quarkiverse.mcp.server.runtime.McpMetadata;
import io.quarkiverse.mcp.server.runtime.McpMetrics;
import io.quarkiverse.mcp.server.runtime.NotificationManagerImpl;
import io.quarkiverse.mcp.server.runtime.PromptCompletionManagerImpl;
import io.quarkiverse.mcp.server.runtime.PromptManagerImpl;
import io.quarkiverse.mcp.server.runtime.ResourceManagerImpl;
import io.quarkiverse.mcp.server.runtime.ResourceTemplateCompletionManagerImpl;
import io.quarkiverse.mcp.server.runtime.ResourceTemplateManagerImpl;
import io.quarkiverse.mcp.server.runtime.ResponseHandlers;
import io.quarkiverse.mcp.server.runtime.ToolManagerImpl;
import io.quarkiverse.mcp.server.runtime.config.McpServerRuntimeConfig;
import io.quarkiverse.mcp.server.runtime.config.McpServersRuntimeConfig;
import io.quarkus.arc.All;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Quarkus MCP's message handling for the one stdio session that mcpwire serves: the same handler
 * as Quarkus MCP's own stdio transport ({@code StdioMcpMessageHandler}, whose reader mcpwire keeps
 * off), fed by mcpwire's transport instead of a reader of {@code System.in}, and answering through
 * it. Each message is handled as Quarkus MCP's own transport handles it: on a new duplicated Vert.x
 * context, as blocking work.
 */
@Singleton
public class McpwireMessageHandler extends McpMessageHandler<McpwireRequest> {

    private final McpServerRuntimeConfig serverConfig;

    /** For CDI: the same beans as Quarkus MCP's own stdio handler. */
    protected McpwireMessageHandler(McpServersRuntimeConfig config, ConnectionManager connectionManager,
                                    PromptManagerImpl promptManager, ToolManagerImpl toolManager,
                                    ResourceManagerImpl resourceManager, PromptCompletionManagerImpl promptCompleteManager,
                                    ResourceTemplateManagerImpl resourceTemplateManager,
                                    ResourceTemplateCompletionManagerImpl resourceTemplateCompleteManager,
                                    NotificationManagerImpl notificationManager, ResponseHandlers responseHandlers,
                                    @All List<InitialCheck> initialChecks, McpMetadata metadata, Vertx vertx,
                                    Instance<McpMetrics> metrics) {
        super(config, connectionManager, promptManager, toolManager, resourceManager, promptCompleteManager,
                resourceTemplateManager, resourceTemplateCompleteManager, notificationManager, responseHandlers, metadata, vertx,
                initialChecks, metrics.isResolvable() ? metrics.get() : null);
        if (config.servers().size() > 1) {
            throw new IllegalStateException("Quarkus MCP's stdio transport serves one server configuration; "
                    + config.servers().size() + " are configured");
        }
        this.serverConfig = config.servers().values().iterator().next();
    }

    /** The session's connection over {@code transport}, known to Quarkus MCP's connection manager (notifications, pings). */
    McpwireConnection open(StdioTransport transport) {
        McpwireConnection connection = new McpwireConnection(ConnectionManager.connectionId(), serverConfig, transport, vertx);
        connectionManager.add(connection);
        return connection;
    }

    /** Forgets the session's connection: nothing more is sent on it. */
    void closed(McpwireConnection connection) {
        connectionManager.remove(connection.id());
    }

    /** Handles one message, decoded by Vert.x, on a new duplicated context as blocking work; returns at once. */
    void receive(Object json, McpwireConnection connection) {
        Context context = VertxContext.getOrCreateDuplicatedContext(vertx);
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.executeBlocking(() -> handle(new McpwireRequest(McpServer.DEFAULT, json, connection)));
    }

    @Override
    protected Transport transport() {
        return Transport.STDIO;
    }
}
