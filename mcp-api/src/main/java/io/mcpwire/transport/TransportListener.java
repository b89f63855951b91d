package io.mcpwire.transport;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;

/**
 * Receives what a {@link McpTransport} reads, in order, on the one thread the transport delivers
 * on (mcpwire's stdio transport: its dispatcher thread, not the thread that reads the wire);
 * {@link #onClosed} may come from whichever thread ends the session.
 */
public interface TransportListener {

    /** One decoded message. */
    void onMessage(JsonRpcMessage message);

    /**
     * One line that did not decode. A transport may already have answered it (see its
     * documentation); the default does nothing.
     */
    default void onDecodeError(DecodeError error) {
    }

    /** The transport closed; called exactly once, last. */
    void onClosed(TransportClosed closed);
}
