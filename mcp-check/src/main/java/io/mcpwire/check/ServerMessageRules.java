package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.protocol.ProtocolEra;
import java.util.ArrayList;
import java.util.List;

/**
 * What the 2026-07-28 era forbids of the messages a server sends of its own accord: any JSON-RPC
 * request on stdout, and {@code notifications/message} for a request that did not ask for log
 * messages ({@code io.modelcontextprotocol/logLevel} in its {@code _meta}). The legacy era allows
 * both (sampling, roots and elicitation are requests; logging follows {@code logging/setLevel}).
 */
final class ServerMessageRules {
    static final String LOG_MESSAGE = "notifications/message";

    private ServerMessageRules() {
    }

    /**
     * What is wrong with {@code fromServer} in {@code era}; {@code logLevelAsked} says whether any
     * request of the session asked for log messages.
     */
    static List<Finding> judge(ProtocolEra era, List<JsonRpcMessage> fromServer, boolean logLevelAsked) {
        if (era != ProtocolEra.MODERN) {
            return List.of();
        }
        List<Finding> wrong = new ArrayList<>();
        for (JsonRpcMessage m : fromServer) {
            if (m instanceof JsonRpcRequest r) {
                wrong.add(new Finding(Finding.Kind.SERVER_REQUEST, Phase.SESSION, "the server sent the request "
                        + ServerWire.quote(r.method()) + " (id " + r.id() + ")",
                        "a 2026-07-28 server writes no requests to stdout: ask for input with an input_required "
                                + "result instead, and send sampling, roots or elicitation requests only in the legacy era"));
            } else if (m instanceof JsonRpcNotification n && n.method().equals(LOG_MESSAGE) && !logLevelAsked) {
                wrong.add(new Finding(Finding.Kind.UNASKED_LOG_MESSAGE, Phase.SESSION, "the server sent " + LOG_MESSAGE
                        + " although no request carried io.modelcontextprotocol/logLevel",
                        "in 2026-07-28 logging is per request: send log messages only for a request whose _meta "
                                + "has io.modelcontextprotocol/logLevel, at or above that level"));
            }
        }
        return wrong;
    }
}
