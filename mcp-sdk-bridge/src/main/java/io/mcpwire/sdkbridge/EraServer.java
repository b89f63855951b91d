package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.JsonRpcMessage;

/**
 * A server that shares a connection with the legacy session, as the bridge's legacy provider sees
 * it: of our own types alone, so that the provider's class names no type of the SDK's 2026-07-28
 * line, and loads and reflects on SDK 0.17 to 2.1, which have none.
 */
interface EraServer {
    /** One message from the client, on the dispatcher thread. */
    void message(JsonRpcMessage message);

    /** No more requests will come: end what only the client's departure ends. */
    void inputEnded();
}
