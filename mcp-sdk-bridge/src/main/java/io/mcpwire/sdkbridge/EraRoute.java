package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.ProtocolEra;
import java.lang.System.Logger.Level;
import tools.jackson.databind.JsonNode;

/**
 * Which server a dual-era connection's messages go to. The connection's first request decides,
 * for good: {@code server/discover}, or a request whose {@code _meta} names a protocol version of
 * 2026-07-28 or later, pins the modern server; {@code initialize}, or any other request, the
 * legacy session. Later messages go where the connection is pinned, whatever era they speak, and
 * that server treats the other era's requests as it would alone (the modern server refuses
 * {@code initialize} with -32022; the legacy session answers {@code server/discover} with -32601).
 * Notifications before the first request, and the client's responses (which answer the legacy
 * session's requests to the client), go to the legacy session.
 *
 * <p>Pinned on the transport's dispatcher thread alone, one message at a time; read by any thread
 * ({@link #pinnedModern()}).
 */
final class EraRoute {
    /** The connection's era so far. */
    private enum Pinned {
        NOT_YET,
        LEGACY,
        MODERN
    }

    private static final System.Logger LOG = System.getLogger("io.mcpwire.sdkbridge");

    private volatile Pinned pinned = Pinned.NOT_YET;

    /** Whether {@code message} goes to the modern server; pins the connection at its first request. */
    boolean toModern(JsonRpcMessage message) {
        if (message instanceof JsonRpcRequest request && pinned == Pinned.NOT_YET) {
            pinned = isModern(request) ? Pinned.MODERN : Pinned.LEGACY;
            LOG.log(Level.DEBUG, "the connection opened with {0}: served by the {1} server", request.method(),
                    pinned == Pinned.MODERN ? "2026-07-28" : "legacy");
        }
        return pinned == Pinned.MODERN && !(message instanceof JsonRpcResponse);
    }

    /** Whether the connection is the modern server's: the legacy session then has nobody to talk to. */
    boolean pinnedModern() {
        return pinned == Pinned.MODERN;
    }

    /** Whether {@code request} is spoken in the modern era. */
    static boolean isModern(JsonRpcRequest request) {
        if (McpProtocol.INITIALIZE.equals(request.method())) {
            return false; // the legacy era's opening, whatever its _meta names
        }
        if (McpProtocol.SERVER_DISCOVER.equals(request.method())) {
            return true;
        }
        JsonNode meta = request.params() == null ? null : request.params().get(MetaKeys.META);
        JsonNode version = meta == null ? null : meta.get(MetaKeys.PROTOCOL_VERSION);
        return version != null && version.isString() && ProtocolEra.of(version.stringValue()) == ProtocolEra.MODERN;
    }
}
