package io.mcpwire.quarkus;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.mcpwire.transport.StdioTransport;
import io.quarkus.runtime.Quarkus;
import io.vertx.core.json.Json;
import java.lang.System.Logger.Level;

/**
 * The stdio session of a Quarkus MCP application, served over mcpwire's transport: mcpwire reads,
 * frames and bounds the lines, answers those that are not JSON-RPC, and keeps the requests owed an
 * answer; Quarkus MCP's handler handles each message, decoded again by Vert.x as Quarkus MCP's own
 * transport decodes it. When the session is over (end of input, the host's exit), every answer
 * owed has been written; the application then exits, unless {@code mcpwire.exit-at-end-of-input}
 * is false.
 */
final class QuarkusStdioSession implements TransportListener {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.quarkus");

    private final JsonRpcCodec codec = JsonRpcCodec.standard();
    private final StdioTransport transport;
    private final McpwireMessageHandler handler;
    private final McpwireConnection connection;
    private final boolean exitAtEnd;

    QuarkusStdioSession(StdioTransport transport, McpwireMessageHandler handler, boolean exitAtEnd) {
        this.transport = transport;
        this.handler = handler;
        this.exitAtEnd = exitAtEnd;
        this.connection = handler.open(transport);
    }

    /** Starts reading the wire. */
    void start() {
        transport.start(this);
    }

    /** Ends the session as end of input does: every request received is answered first. */
    void closeWhenAnswered() {
        transport.closeWhenAnswered();
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        handler.receive(Json.decodeValue(codec.encodeToString(message)), connection);
    }

    @Override
    public void onDecodeError(DecodeError error) {
        LOG.log(Level.DEBUG, "a line that is not JSON-RPC, answered {0}: {1}", error.code(), error.message());
    }

    @Override
    public void onClosed(TransportClosed closed) {
        LOG.log(closed.reason() == TransportClosed.Reason.FAILED ? Level.WARNING : Level.DEBUG, "stdio session over: {0}", closed);
        handler.closed(connection);
        if (exitAtEnd) {
            Quarkus.asyncExit(0);
        }
    }
}
