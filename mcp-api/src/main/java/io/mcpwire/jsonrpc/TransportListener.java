package io.mcpwire.jsonrpc;

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

    /**
     * No more requests will come: the client's input ended, its host exited, or the server asked
     * the transport to close once it has answered. The transport now waits for the answers still
     * owed, so a server ends here what only the client's departure would end (an open
     * subscription, a long poll), and answers it. Called at most once, before {@link #onClosed},
     * on whichever thread saw the end; it must not block. The default does nothing.
     */
    default void onInputEnded() {
    }

    /** The transport closed; called exactly once, last. */
    void onClosed(TransportClosed closed);
}
