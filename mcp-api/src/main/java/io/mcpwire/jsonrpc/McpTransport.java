package io.mcpwire.jsonrpc;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import java.io.IOException;

/**
 * A bidirectional channel of JSON-RPC messages between a server and one client.
 *
 * <p>Life cycle: {@link #start} once with a listener; {@link #send} from any thread;
 * {@link #close} from any thread, any number of times. The listener learns of every incoming
 * message, every undecodable line, and finally, exactly once, why the transport closed.
 */
public interface McpTransport extends AutoCloseable {

    /**
     * Starts reading. Incoming messages go to {@code listener} on the one thread the transport
     * delivers on (mcpwire's stdio transport: its dispatcher thread), in the order they arrived.
     *
     * @throws IllegalStateException when already started or closed
     */
    void start(TransportListener listener);

    /**
     * Sends one message. Thread-safe: each message goes out whole, never interleaved with
     * another, in the order the calls were made. May block while the outbound queue is full
     * (back-pressure from a client that does not read).
     *
     * @throws MessageTooLargeException when the encoded message exceeds the size limit
     * @throws IOException when the transport is closed or the client has gone
     */
    void send(JsonRpcMessage message) throws IOException;

    /**
     * Closes the transport: stops reading, writes what was already sent (within the transport's
     * grace period), releases what the transport holds, and tells the listener. Returns promptly
     * even while the reader is blocked; idempotent.
     */
    @Override
    void close();
}
