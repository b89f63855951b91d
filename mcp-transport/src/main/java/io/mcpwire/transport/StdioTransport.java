package io.mcpwire.transport;

import io.mcpwire.stdio.HostWatch;
import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.stdio.Wire;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.transport.engine.TransportOptions;
import io.mcpwire.transport.engine.Connection;
import io.mcpwire.transport.engine.WireSource;
import io.mcpwire.jsonrpc.McpTransport;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The MCP stdio transport: newline-delimited JSON-RPC over a {@link StdioClaim} (the real
 * standard streams, isolated while it serves) or over streams passed in explicitly (which claim
 * nothing).
 *
 * <pre>{@code
 * StdioTransport transport = StdioTransport.create();   // claims stdin and stdout
 * transport.start(listener);                            // messages arrive on the dispatcher thread
 * transport.send(response);                             // from any thread
 * transport.close();                                    // or wait for end of input
 * }</pre>
 *
 * <p>Framing: one message per line of UTF-8; {@code \n} and {@code \r\n} accepted, blank lines
 * skipped, a byte order mark at the start tolerated; output is LF only. A line over the size limit
 * (16 MiB by default) is skipped in bounded memory and answered as an invalid request, with its
 * id when it was a request whose id could be read as it streamed past, else a null id; a line
 * that is not UTF-8, not JSON or not JSON-RPC is answered as JSON-RPC prescribes (when
 * {@link Builder#answerDecodeErrors} is on, the default) and reported to the listener; serving goes
 * on. See {@code docs/transport.md}.
 *
 * <p>Sends are thread-safe, whole frames, in call order, coalesced by the writer under load, and
 * block while the bounded outbound queue is full. At end of input the transport waits for the
 * answers to every request received while anything moves (the grace period counts time without
 * progress), writes them, releases the claim, and only then tells the listener.
 *
 * <p>Messages arrive on the dispatcher thread. The threads, and the locks in the order they are
 * taken, are tabled in the connection's documentation ({@code io.mcpwire.transport.engine.Connection}).
 */
public final class StdioTransport implements McpTransport {
    private final Optional<StdioClaim> claim;
    private final Connection connection;
    private final McpwireSettings settings;

    private StdioTransport(TransportOptions options, Wire wire, Optional<StdioClaim> claim, McpwireSettings settings) {
        this.claim = claim;
        this.settings = settings;
        this.connection = new Connection(options, wire);
    }

    /** A transport over the real standard streams, claimed now with the chosen provider. */
    public static StdioTransport create() {
        return builder().build();
    }

    /** A builder, to pass a claim or streams, or change the limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** The settings this transport was built with: the builder's, over the system properties read at {@code build()}. */
    public McpwireSettings settings() {
        return settings;
    }

    /** The claim this transport serves over and will release; empty over the caller's streams. */
    public Optional<StdioClaim> claim() {
        return claim;
    }

    /**
     * Starts serving: the reader, the dispatcher, the writer and the host watch. Over a claim, the
     * JVM's shutdown (SIGTERM) drains the session as end of input does: the answers owed are
     * written and the claim released (its owner's, for a kept claim), before the JVM exits with
     * the status the shutdown gives.
     *
     * @throws IllegalStateException when started before, or closed
     */
    @Override
    public void start(TransportListener listener) {
        connection.start(Objects.requireNonNull(listener, "listener"));
        if (claim.isPresent()) {
            connection.drainAtShutdown();
        }
    }

    @Override
    public void send(JsonRpcMessage message) throws IOException {
        Objects.requireNonNull(message, "message");
        connection.send(message);
    }

    /**
     * Sends a request or notification that the caller serialized as JSON itself (a bridge to a
     * framework with its own JSON mapper), without decoding it again. The caller vouches that it
     * is one JSON-RPC message; line breaks become spaces, so that it stays one line. Otherwise as
     * {@link #send}.
     */
    public void sendEncoded(String json) throws IOException {
        Objects.requireNonNull(json, "json");
        connection.sendEncoded(json, Optional.empty());
    }

    /**
     * Sends the answer to request {@code id}, serialized as JSON by the caller, without decoding
     * it again; it settles the request as {@link #send} of a response does, and an answer over
     * the size limit is replaced by a bounded error with the same id.
     */
    public void sendEncodedAnswer(RequestId id, String json) throws IOException {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(json, "json");
        connection.sendEncoded(json, Optional.of(id));
    }

    /**
     * Ends the connection, not waiting for answers still owed, and puts the wire back; before
     * {@code start}, only puts the wire back. Waits for a close another thread runs, unless called
     * from inside it (a listener's {@code onClosed}), when it returns at once.
     */
    @Override
    public void close() {
        connection.close();
    }

    /**
     * Ends the connection as end of input does: nothing more is read, every request already received
     * is answered (within the grace period, counted as time without progress), the answers are
     * written and the wire put back; the listener hears {@code onInputEnded}, then
     * {@code onClosed} with {@link io.mcpwire.jsonrpc.TransportClosed.Reason#CLOSED}. Blocks the
     * caller until the connection has closed; before {@code start}, the same as {@link #close()}.
     */
    public void closeWhenAnswered() {
        connection.closeWhenAnswered();
    }

    /** Options for a transport. */
    public static final class Builder {
        private WireSource source = new WireSource.ClaimAtBuild(Optional.empty());
        private JsonRpcCodec codec = JsonRpcCodec.standard();
        private int maxMessageBytes = 16 * 1024 * 1024;
        private Duration gracePeriod = Duration.ofSeconds(5);
        private long outboundQueueBytes = 32L * 1024 * 1024;
        private boolean answerDecodeErrors = true;
        private Optional<McpwireSettings> settings = Optional.empty();
        private Optional<HostWatch> hostWatch = Optional.empty();

        private Builder() {
        }

        /**
         * Serves over a claim taken earlier (say, first thing in {@code main}); the transport
         * releases it when it closes.
         *
         * @throws IllegalStateException when streams were given
         */
        public Builder claim(StdioClaim claim) {
            return given(claim, false);
        }

        /**
         * Serves over a claim that its owner keeps and releases itself, later: when the transport
         * closes it stops serving, and the streams stay diverted until {@link StdioClaim#close()}
         * (a framework whose start-up may log after a session that ended early, as Spring's does).
         *
         * @throws IllegalStateException when streams, a platform or another claim were given
         */
        public Builder keptClaim(StdioClaim claim) {
            return given(claim, true);
        }

        private Builder given(StdioClaim claim, boolean kept) {
            Objects.requireNonNull(claim, "claim");
            source.requireNoneGiven("a claim");
            source = new WireSource.GivenClaim(claim, kept);
            return this;
        }

        /**
         * The platform provider for the claim the transport takes itself (see
         * {@code docs/platforms.md}); without it, one is chosen.
         *
         * @throws NullPointerException  when {@code platform} is null: nothing is reset
         * @throws IllegalStateException when a claim, streams or another platform was given
         */
        public Builder platform(PlatformDescriptors platform) {
            Objects.requireNonNull(platform, "platform (leave it out to have one chosen)");
            source.requireNoneGiven("a platform");
            source = new WireSource.ClaimAtBuild(Optional.of(platform));
            return this;
        }

        /**
         * Serves these streams as given and claims nothing. The caller keeps them: the transport
         * flushes the output but closes neither.
         *
         * @throws IllegalStateException when a claim was given
         */
        public Builder streams(InputStream input, OutputStream output) {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(output, "output");
            source.requireNoneGiven("streams");
            source = new WireSource.GivenStreams(input, output);
            return this;
        }

        /** The codec, for other decoding limits (default {@link JsonRpcCodec#standard()}). */
        public Builder codec(JsonRpcCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /** The largest message, in bytes of UTF-8, either way (default 16 MiB). */
        public Builder maxMessageBytes(int bytes) {
            this.maxMessageBytes = (int) atLeastOne(bytes);
            return this;
        }

        /**
         * How long closing waits for answers still owed and frames still queued (default 5 s);
         * what is left after it is dropped, and the close says how much.
         */
        public Builder gracePeriod(Duration grace) {
            if (Objects.requireNonNull(grace, "grace").isNegative()) {
                throw new IllegalArgumentException("a negative grace period: " + grace);
            }
            this.gracePeriod = grace;
            return this;
        }

        /** How many bytes of frames may wait for the writer before {@code send} blocks (default 32 MiB). */
        public Builder outboundQueueBytes(long bytes) {
            this.outboundQueueBytes = atLeastOne(bytes);
            return this;
        }

        private static long atLeastOne(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes < 1: " + bytes);
            }
            return bytes;
        }

        /**
         * Every setting at once (see {@link McpwireSettings}), in place of the system properties,
         * which are otherwise read at {@link #build()}: the claim the transport takes itself is
         * taken with them, and the host watch is theirs. The calls on this builder still win.
         */
        public Builder settings(McpwireSettings settings) {
            this.settings = Optional.of(Objects.requireNonNull(settings, "settings"));
            return this;
        }

        /**
         * Which processes the session ends with, even while stdin stays open, as at end of input
         * (default: {@code mcpwire.host-watch}, else {@link HostWatch#ANCESTORS}: the host, seen
         * through the wrappers that start this process and wait for it; see {@code docs/transport.md},
         * "Shutdown", for what it cannot see).
         */
        public Builder hostWatch(HostWatch watch) {
            this.hostWatch = Optional.of(Objects.requireNonNull(watch, "watch"));
            return this;
        }

        /** Whether the transport answers undecodable lines itself (default true). */
        public Builder answerDecodeErrors(boolean answer) {
            this.answerDecodeErrors = answer;
            return this;
        }

        /**
         * Builds the transport. Without a claim or streams, it claims the standard streams now.
         *
         * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds them
         */
        public StdioTransport build() {
            // No lambdas on a server's way to its first answer: each one's first call generates a class, at every start.
            McpwireSettings effective = settings.isPresent() ? settings.get() : McpwireSettings.fromSystemProperties();
            if (hostWatch.isPresent()) {
                effective = effective.withHostWatch(hostWatch.get());
            }
            Optional<StdioClaim> claim = source.claim(effective);
            TransportOptions options = new TransportOptions(codec, maxMessageBytes, gracePeriod.toNanos(), outboundQueueBytes,
                    answerDecodeErrors, effective.hostWatch(), claim.isPresent() ? claim.get().processExits() : Optional.empty(),
                    source.releaseOnClose());
            return claim.isPresent()
                    ? new StdioTransport(options, claim.get().wire(), claim, claim.get().settings().withHostWatch(options.hostWatch()))
                    : new StdioTransport(options, source.callerStreams(), claim, effective);
        }
    }
}
