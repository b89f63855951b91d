package io.mcpwire.quarkus;

import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.transport.StdioTransport;
import io.quarkiverse.mcp.server.runtime.McpConnectionBase;
import io.quarkiverse.mcp.server.runtime.config.McpServerRuntimeConfig;
import io.quarkus.runtime.BlockingOperationControl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Optional;

/**
 * The stdio session's connection, as Quarkus MCP sees it: what it sends goes out through mcpwire's
 * transport, an answer settling the request it answers (so that end of input waits for it). A send
 * from an event-loop thread is made on a worker, as Quarkus MCP's own stdio connection does: a
 * write can wait for the client to read.
 */
public final class McpwireConnection extends McpConnectionBase {

    private final StdioTransport transport;
    private final Vertx vertx;

    McpwireConnection(String id, McpServerRuntimeConfig serverConfig, StdioTransport transport, Vertx vertx) {
        super(id, serverConfig);
        this.transport = transport;
        this.vertx = vertx;
    }

    @Override
    public Future<Void> send(JsonObject message) {
        if (message == null) {
            return Future.succeededFuture();
        }
        messageSent(message);
        if (BlockingOperationControl.isBlockingAllowed()) {
            return write(message);
        }
        return vertx.executeBlocking(() -> write(message)).compose(written -> written);
    }

    private Future<Void> write(JsonObject message) {
        try {
            Optional<RequestId> answers = answered(message);
            if (answers.isPresent()) {
                transport.sendEncodedAnswer(answers.get(), message.encode());
            } else {
                transport.sendEncoded(message.encode());
            }
            return Future.succeededFuture();
        } catch (IOException e) {
            return Future.failedFuture(e);
        }
    }

    /** The request {@code message} answers: its id, when it is a result or an error with a string or integer id. */
    static Optional<RequestId> answered(JsonObject message) {
        if (!message.containsKey("result") && !message.containsKey("error")) {
            return Optional.empty();
        }
        Object id = message.getValue("id");
        if (id instanceof String s) {
            return Optional.of(RequestId.of(s));
        }
        if (id instanceof Integer || id instanceof Long || id instanceof Short || id instanceof Byte) {
            return Optional.of(RequestId.of(((Number) id).longValue()));
        }
        return Optional.empty();
    }
}
