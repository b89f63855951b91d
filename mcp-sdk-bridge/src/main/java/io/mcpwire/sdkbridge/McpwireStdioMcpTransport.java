package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.transport.StdioTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The official MCP Java SDK's stdio transport for its 2026-07-28 server
 * ({@code io.modelcontextprotocol.modern.server.McpServer}, SDK 2.2), served over mcpwire: the
 * standard streams are claimed at construction, so nothing the server, the SDK or a child started
 * with {@code inheritIO()} prints reaches the client; framing, limits and bad input are mcpwire's;
 * and every request received before end of input is answered before the streams are put back.
 *
 * <pre>{@code
 * McpServer server = McpServer.builder().serverInfo(...).feature(ToolsFeature.ofSync(...)).build();
 * new McpwireStdioMcpTransport(server, jsonMapper).start().block();   // was: new StdioMcpTransport(server, jsonMapper)
 * }</pre>
 *
 * <p>It takes the SDK transport's constructors and keeps its {@link #start()} and
 * {@link #closeGracefully()}. What differs, beside the claim: a line over the size limit is
 * answered with an error carrying its id (the SDK's drops it, and the client waits for ever); at
 * end of input, or when the host that started the server dies, the requests in flight are
 * answered, and open subscriptions ended with their result, before the session ends (the SDK's
 * drops them); a request whose id is still in flight is refused rather than ignored. One session,
 * as on every stdio transport. To serve both protocol eras on one connection, see
 * {@link McpwireBothEras}.
 */
public final class McpwireStdioMcpTransport {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.sdkbridge");

    private final StdioTransport transport;
    private final ModernRequests requests;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    /** Claims the standard streams now, and will serve {@code requestManager} on them. */
    public McpwireStdioMcpTransport(McpRequestManager requestManager, McpJsonMapper jsonMapper) {
        this(requestManager, jsonMapper, StdioTransport.create());
    }

    /**
     * Serves these streams as given and claims nothing (as the SDK's transport over explicit
     * streams): for tests, or a server whose streams are not the standard ones.
     */
    public McpwireStdioMcpTransport(McpRequestManager requestManager, McpJsonMapper jsonMapper, InputStream in, OutputStream out) {
        this(requestManager, jsonMapper, StdioTransport.builder().streams(in, out).build());
    }

    /** As {@link #McpwireStdioMcpTransport(McpRequestManager, McpJsonMapper, InputStream, OutputStream)}, with another size limit, in bytes. */
    public McpwireStdioMcpTransport(McpRequestManager requestManager, McpJsonMapper jsonMapper, InputStream in, OutputStream out,
                                    int inputMaxSize) {
        this(requestManager, jsonMapper, StdioTransport.builder().streams(in, out).maxMessageBytes(inputMaxSize).build());
    }

    /**
     * Serves over a transport built by the caller: over an early {@code StdioClaim}, with other
     * limits, or another platform provider. It starts the transport in {@link #start()} and closes it.
     */
    public McpwireStdioMcpTransport(McpRequestManager requestManager, McpJsonMapper jsonMapper, StdioTransport transport) {
        Objects.requireNonNull(requestManager, "requestManager");
        Objects.requireNonNull(jsonMapper, "jsonMapper");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.requests = new ModernRequests(requestManager, jsonMapper, transport);
    }

    /** The mcpwire transport underneath, for its claim's state. */
    public StdioTransport transport() {
        return transport;
    }

    /**
     * Starts serving. The JVM stays alive while the session lasts, as the legacy bridge keeps it
     * (the SDK's transport leaves that to a {@code block()} on the result).
     *
     * @return completes when the session has ended: end of input, the host's death, a failure, or
     *         a close; by then the answers owed are written and the streams put back
     * @throws IllegalStateException when started before
     */
    public Mono<Void> start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("McpwireStdioMcpTransport can only be started once");
        }
        try {
            transport.start(new Inbound());
        } catch (IllegalStateException closedBefore) {
            ended.complete(null); // closed before it started: nothing to wait for
            throw closedBefore;
        }
        Thread keeper = new Thread(ended::join, "mcpwire-sdk-session");
        keeper.setDaemon(false);
        keeper.start();
        return Mono.fromFuture(ended, true);
    }

    /**
     * Ends the session as end of input does: no more requests are read, the ones in flight are
     * answered (within the transport's grace period), then the streams are put back. The SDK's own
     * close drops the answers still owed; this one gives them.
     *
     * @return completes when the session has ended
     */
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(transport::closeWhenAnswered)
                .subscribeOn(Schedulers.boundedElastic())
                .then(Mono.defer(() -> started.get() ? Mono.fromFuture(ended, true) : Mono.empty()));
    }

    /** Hands what mcpwire decoded to the modern server. */
    private final class Inbound implements TransportListener {
        @Override
        public void onMessage(JsonRpcMessage message) {
            requests.message(message);
        }

        @Override
        public void onDecodeError(DecodeError error) {
            LOG.log(Level.DEBUG, "answered an undecodable line: {0}", error.message());
        }

        @Override
        public void onInputEnded() {
            requests.inputEnded();
        }

        @Override
        public void onClosed(TransportClosed closed) {
            LOG.log(closed.reason() == TransportClosed.Reason.FAILED ? Level.WARNING : Level.DEBUG,
                    "stdio transport closed: {0}", closed);
            ended.complete(null);
        }
    }
}
