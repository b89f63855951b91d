package io.mcpwire.sdkbridge;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import reactor.core.publisher.Mono;

/**
 * The official MCP Java SDK's stdio server transport, served over mcpwire: the standard streams
 * are claimed (so a tool's prints to {@code System.out} or an {@code inheritIO()} child never reach
 * the client), framing, limits and bad input are mcpwire's, and at end of input every request
 * already received is answered before the streams are put back.
 *
 * <pre>{@code
 * McpSyncServer server = McpServer.sync(new McpwireStdioServerTransportProvider())  // was: new StdioServerTransportProvider(mapper)
 *         .serverInfo("my-server", "1.0")
 *         .tools(...)
 *         .build();
 * }</pre>
 *
 * <p>Constructing it claims stdin and stdout at once; construct it first thing in {@code main}
 * (or pass a {@link StdioClaim} taken there to a transport and this provider). One session, as on
 * every stdio transport.
 */
public final class McpwireStdioServerTransportProvider implements McpServerTransportProvider {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.sdkbridge");

    private final McpJsonMapper jsonMapper;
    private final StdioTransport transport;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile McpServerSession session;
    private volatile Runnable afterClose = () -> { };
    /** The 2026-07-28 server that shares the connection, when one was given ({@link McpwireBothEras}). */
    private volatile Optional<EraServer> modern = Optional.empty();
    private final EraRoute route = new EraRoute();

    /** Claims the standard streams now, with the SDK's default JSON mapper (on SDK 0.17, 2.0, 2.1 and 2.2). */
    public McpwireStdioServerTransportProvider() {
        this(SdkLine.current().defaultMapper());
    }

    /** Claims the standard streams now, with the given JSON mapper. */
    public McpwireStdioServerTransportProvider(McpJsonMapper jsonMapper) {
        this(jsonMapper, StdioTransport.create());
    }

    /**
     * Serves over a transport built by the caller: over an early claim, explicit streams, or with
     * other limits. The provider starts it when the SDK hands over the session, and closes it.
     */
    public McpwireStdioServerTransportProvider(McpJsonMapper jsonMapper, StdioTransport transport) {
        this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper");
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** The mcpwire transport underneath, for its claim's state. */
    public StdioTransport transport() {
        return transport;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        session = sessionFactory.create(new SessionTransport());
        transport.start(new Inbound());
        // mcpwire's threads are daemons; the SDK's stdio provider keeps the JVM alive while its
        // session lasts, and servers rely on that (main returns after build()): do the same.
        Thread keeper = new Thread(this::awaitClosed, "mcpwire-sdk-session");
        keeper.setDaemon(false);
        keeper.start();
    }

    /**
     * Serves {@code modern} on the same connection, the connection's first request deciding which
     * serves it ({@link EraRoute}); before the session is built, since building it starts serving.
     * See {@link McpwireBothEras}, which is the way to it.
     */
    void serveModernToo(EraServer modern) {
        if (session != null) {
            throw new IllegalStateException("the legacy server is already built over this provider and serving");
        }
        this.modern = Optional.of(modern);
    }

    /**
     * Runs {@code action} once the transport has closed, before {@link #awaitClosed()} returns:
     * for a framework that releases a claim it kept ({@code StdioTransport.Builder.keptClaim}).
     *
     * @return this provider
     */
    public McpwireStdioServerTransportProvider closedThen(Runnable action) {
        this.afterClose = java.util.Objects.requireNonNull(action, "action");
        return this;
    }

    /** Waits until the transport has closed (end of input, a closed server, or a failure). */
    public void awaitClosed() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        if (s == null) {
            return Mono.error(new IllegalStateException("no session to notify"));
        }
        return s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> {
            McpServerSession s = session;
            if (s == null) {
                return Mono.error(new IllegalStateException("no session to notify"));
            }
            if (!s.getId().equals(sessionId)) {
                return Mono.error(new IllegalStateException("session " + sessionId + " is not this transport's ("
                        + s.getId() + ")"));
            }
            return s.sendNotification(method, params);
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession s = session;
        Mono<Void> closeTransport = Mono.fromRunnable(transport::close);
        return s == null ? closeTransport : s.closeGracefully().then(closeTransport);
    }

    /** Hands each message mcpwire decoded to the SDK's session. */
    private final class Inbound implements TransportListener {
        @Override
        public void onMessage(JsonRpcMessage message) {
            Optional<EraServer> modernServer = modern;
            if (modernServer.isPresent() && route.toModern(message)) {
                modernServer.get().message(message);
                return;
            }
            session.handle(SdkMessages.toSdk(message)).subscribe(null, e -> LOG.log(Level.WARNING, "the session failed on a message: {0}", e.toString()));
        }

        @Override
        public void onDecodeError(DecodeError error) {
            LOG.log(Level.DEBUG, "answered an undecodable line: {0}", error.message());
        }

        @Override
        public void onInputEnded() {
            modern.ifPresent(EraServer::inputEnded);
        }

        @Override
        public void onClosed(TransportClosed closed) {
            LOG.log(closed.reason() == TransportClosed.Reason.FAILED ? Level.WARNING : Level.DEBUG,
                    "stdio transport closed: {0}", closed);
            McpServerSession s = session;
            if (s != null) {
                s.close();
            }
            try {
                afterClose.run();
            } finally {
                McpwireStdioServerTransportProvider.this.closed.countDown();
            }
        }
    }

    /** The SDK's view of the transport: its outgoing messages go through mcpwire's writer. */
    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromCallable(() -> {
                if (modern.isPresent() && route.pinnedModern()) {
                    // A 2026-07-28 client never opened the legacy session: its notifications are not for it.
                    LOG.log(Level.DEBUG, "the legacy session''s message is not sent: the connection is the 2026-07-28 server''s");
                    return null;
                }
                String json = jsonMapper.writeValueAsString(message); // serialized once, sent as it is
                Optional<RequestId> answers = SdkMessages.answered(message);
                if (answers.isPresent()) {
                    transport.sendEncodedAnswer(answers.get(), json);
                } else {
                    transport.sendEncoded(json);
                }
                return null;
            }).then();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return jsonMapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(transport::close);
        }

        @Override
        public void close() {
            transport.close();
        }
    }
}
