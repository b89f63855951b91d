package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.transport.StdioTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpHeaders;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Serves modern-era (2026-07-28) messages to the official SDK's {@code McpRequestManager} (SDK
 * 2.2) over mcpwire's transport. Each request is handled on Reactor's bounded elastic scheduler,
 * as the SDK's own stdio transport does; what it answers, one response or a stream of
 * notifications and then the response, is written whole and in order; a request the client
 * cancels is stopped and answered no more. Every other request gets exactly one answer: a handler
 * that fails, or ends without a response, is answered -32603 as the SDK answers it.
 *
 * <p>Threads: messages arrive on the transport's dispatcher thread; a request's messages are
 * written from the Reactor thread that produced them, one at a time. {@link #inFlight} is a
 * concurrent map; each entry's flag is written and read by that request's signals alone.
 */
final class ModernRequests implements EraServer {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.sdkbridge");
    /** Stdio carries no HTTP headers: the SDK's own stdio transport says the same. */
    private static final McpTransportContext CONTEXT =
            McpTransportContext.create(Map.of(McpHeaders.TRANSPORT_CONTEXT_KEY, McpHeaders.NOT_MIRRORED));

    private final McpRequestManager server;
    private final McpJsonMapper jsonMapper;
    private final StdioTransport transport;
    private final Map<RequestId, InFlight> inFlight = new ConcurrentHashMap<>();

    /** A request being served: its subscription, whether its response has gone out, and whether the client cancelled it. */
    private static final class InFlight {
        final Disposable.Swap subscription = Disposables.swap();
        volatile boolean answered;
        volatile boolean cancelled;
    }

    ModernRequests(McpRequestManager server, McpJsonMapper jsonMapper, StdioTransport transport) {
        this.server = server;
        this.jsonMapper = jsonMapper;
        this.transport = transport;
    }

    /** One message from the client, on the dispatcher thread. */
    @Override
    public void message(JsonRpcMessage message) {
        if (message instanceof JsonRpcRequest request) {
            request(request);
        } else if (message instanceof JsonRpcNotification notification) {
            notification(notification);
        } else {
            LOG.log(Level.DEBUG, "a response from the client, ignored: the modern era sends the client no requests");
        }
    }

    /**
     * No more requests will come: open subscriptions are ended, so that they are answered (their
     * result says the subscription ended) before the session closes.
     */
    @Override
    public void inputEnded() {
        if (server instanceof McpServer modern) {
            // Off the caller's thread: ending a subscription writes its result, and a client that
            // does not read must not hold the thread that runs the end of input.
            Schedulers.boundedElastic().schedule(modern::closeGracefully);
        }
    }

    /** How many requests are being served now. */
    int inFlight() {
        return inFlight.size();
    }

    private void request(JsonRpcRequest request) {
        RequestId id = request.id();
        InFlight entry = new InFlight();
        if (inFlight.putIfAbsent(id, entry) != null) {
            answer(JsonRpcError.of(id, ErrorCodes.INVALID_REQUEST, "Invalid Request: a request with id " + id
                    + " is still in flight; ids must be unique among requests in flight"));
            return;
        }
        JsonRpc.JSONRPCRequest sdkRequest = ModernMessages.request(request);
        Flux<JsonRpc.JSONRPCMessage> messages = Mono.defer(() -> server.handle(CONTEXT, sdkRequest))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMapMany(ModernRequests::messages);
        entry.subscription.update(messages.subscribe(
                m -> write(id, entry, m),
                failure -> {
                    LOG.log(Level.WARNING, "the server failed on request {0}: {1}", id, failure.toString());
                    ended(id, entry);
                },
                () -> ended(id, entry)));
    }

    private void notification(JsonRpcNotification notification) {
        if (McpProtocol.CANCELLED.equals(notification.method())) {
            // The transport no longer counts the request as owed; stop it, and nothing of it is written.
            Optional<InFlight> cancelled = ModernMessages.cancelled(notification).map(inFlight::remove);
            cancelled.ifPresent(entry -> {
                entry.cancelled = true; // a message being produced now is not written either
                entry.subscription.dispose();
            });
            return;
        }
        server.handleNotification(CONTEXT, ModernMessages.notification(notification)).subscribe(null,
                failure -> LOG.log(Level.WARNING, "the server failed on notification {0}: {1}", notification.method(), failure.toString()));
    }

    private static Flux<JsonRpc.JSONRPCMessage> messages(McpTransportResponse response) {
        if (response instanceof McpTransportResponse.Streaming streaming) {
            return streaming.messages();
        }
        return Flux.just(response instanceof McpTransportResponse.Result result ? result.response()
                : ((McpTransportResponse.Error) response).response());
    }

    /** One message of a request's answer: a notification on its way, or the response. */
    private void write(RequestId id, InFlight entry, JsonRpc.JSONRPCMessage message) {
        if (entry.cancelled) {
            LOG.log(Level.DEBUG, "a message of request {0}, which the client cancelled, is not written", id);
            return;
        }
        boolean response = message instanceof JsonRpc.JSONRPCResponse;
        String json;
        try {
            json = jsonMapper.writeValueAsString(message);
        } catch (RuntimeException | IOException e) {
            LOG.log(Level.WARNING, "a message of request {0} could not be serialized: {1}", id, e.toString());
            return; // a response that never went out is answered -32603 when the request ends
        }
        if (response) {
            entry.answered = true;
            inFlight.remove(id, entry);
        }
        try {
            if (response) {
                transport.sendEncodedAnswer(id, json);
            } else {
                transport.sendEncoded(json);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "a message of request {0} was not sent: {1}", id, e.getMessage());
        }
    }

    /** The request's answer is over; one that never gave a response is answered as the SDK answers a failure. */
    private void ended(RequestId id, InFlight entry) {
        inFlight.remove(id, entry);
        if (!entry.answered) {
            entry.answered = true;
            answer(JsonRpcError.of(id, ErrorCodes.INTERNAL_ERROR, "Internal error"));
        }
    }

    private void answer(JsonRpcError error) {
        try {
            transport.send(error);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "an error for request {0} was not sent: {1}", error.id(), e.getMessage());
        }
    }
}
