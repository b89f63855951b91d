package io.mcpwire.stdio;

import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.transport.Daemons;
import io.mcpwire.stdio.transport.FrameWriter;
import io.mcpwire.stdio.transport.HostWatch;
import io.mcpwire.stdio.transport.Lifecycle;
import io.mcpwire.stdio.transport.LineDispatcher;
import io.mcpwire.stdio.transport.OutboundQueue;
import io.mcpwire.stdio.transport.PendingRequests;
import io.mcpwire.stdio.transport.Progress;
import io.mcpwire.stdio.transport.WireInput;
import io.mcpwire.stdio.wire.Wire;
import io.mcpwire.transport.McpTransport;
import io.mcpwire.transport.TransportClosed;
import io.mcpwire.transport.TransportListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

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
 * (16 MiB by default) is skipped in bounded memory and answered as an invalid request with a null
 * id; a line that is not UTF-8, not JSON or not JSON-RPC is answered as JSON-RPC prescribes (when
 * {@link Builder#answerDecodeErrors} is on, the default) and reported to the listener; serving goes
 * on. See {@code docs/transport.md}.
 *
 * <p>Sends are thread-safe, whole frames, in call order, coalesced by the writer under load, and
 * block while the bounded outbound queue is full. At end of input the transport waits for the
 * answers to every request received while anything moves (the grace period counts time without
 * progress), writes them, releases the claim, and only then tells the listener.
 *
 * <p>Threads and locks: one table for the claim and the transport, in the package documentation
 * ({@code io.mcpwire.stdio}); messages arrive on the dispatcher thread.
 */
public final class StdioTransport implements McpTransport {
    /** The system property that turns the host watch off when {@code false} ({@link Builder#hostWatch}). */
    public static final String HOST_WATCH_PROPERTY = "mcpwire.stdio.host-watch";
    private static final int INBOUND_BYTES = 4 * 1024 * 1024;

    private final Wire wire;
    private final Optional<StdioClaim> claim;
    private final TransportOptions options;
    private final Lifecycle lifecycle = new Lifecycle();
    private final OutboundQueue queue;
    private final WireInput input;
    private final PendingRequests pending = new PendingRequests();
    private final Progress progress = new Progress();
    private final FrameWriter frames;
    private final CountDownLatch dispatched = new CountDownLatch(1);
    // Set by start(), read after it by the transport's own threads and by closing.
    private volatile LineDispatcher lines;
    private volatile Thread dispatcher;
    private volatile Thread writer;
    private volatile TransportShutdown shutdown;
    private volatile EndOfInputRule endOfInput;
    private volatile HostWatch watch = HostWatch.NONE;

    private StdioTransport(TransportOptions options, Wire wire, Optional<StdioClaim> claim) {
        this.wire = wire;
        this.claim = claim;
        this.options = options;
        this.input = new WireInput(wire.input(), INBOUND_BYTES, () -> endOfInput.wireEnded(), this::readFailed);
        this.queue = new OutboundQueue(options.outboundQueueBytes());
        this.frames = new FrameWriter(wire.output(), wire.outputBuffered(), options.codec(), options.maxMessageBytes(),
                queue, pending, progress);
    }

    /** A transport over the real standard streams, claimed now with the chosen provider. */
    public static StdioTransport create() {
        return builder().build();
    }

    /** A builder, to pass a claim or streams, or change the limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** The claim this transport serves over and will release; empty over the caller's streams. */
    public Optional<StdioClaim> claim() {
        return claim;
    }

    @Override
    public void start(TransportListener listener) {
        Objects.requireNonNull(listener, "listener");
        lifecycle.start();
        this.lines = new LineDispatcher(options.codec(), options.maxMessageBytes(), pending, progress, listener, this::send,
                options.answerDecodeErrors(), lifecycle::isClosing);
        writer = Daemons.thread(this::writeLoop, "mcpwire-stdio-writer");
        dispatcher = Daemons.thread(this::dispatchLoop, "mcpwire-stdio-dispatcher");
        shutdown = new TransportShutdown(lifecycle, progress, queue, frames, wire, input, pending, lines, listener,
                dispatcher, writer, options.graceNanos(), () -> watch.stop(), options.releaseOnClose());
        endOfInput = new EndOfInputRule(lifecycle, progress, pending, dispatched, input, shutdown, options.graceNanos());
        writer.start();
        input.start();
        dispatcher.start();
        if (options.hostWatch()) {
            watch = options.hostExit().map(exit -> HostWatch.of(exit, endOfInput::hostExited))
                    .orElseGet(() -> HostWatch.parent(endOfInput::hostExited));
        }
    }

    @Override
    public void send(JsonRpcMessage message) throws IOException {
        Objects.requireNonNull(message, "message");
        if (!lifecycle.acceptsSends()) {
            throw new IOException("the transport is closed; the message was not sent");
        }
        frames.send(message, moreComing());
    }

    /**
     * Sends a request or notification that the caller serialized as JSON itself (a bridge to a
     * framework with its own JSON mapper), without decoding it again. The caller vouches that it
     * is one JSON-RPC message; line breaks become spaces, so that it stays one line. Otherwise as
     * {@link #send}.
     */
    public void sendEncoded(String json) throws IOException {
        sendText(json, Optional.empty());
    }

    /**
     * Sends the answer to request {@code id}, serialized as JSON by the caller, without decoding
     * it again; it settles the request as {@link #send} of a response does, and an answer over
     * the size limit is replaced by a bounded error with the same id.
     */
    public void sendEncodedAnswer(RequestId id, String json) throws IOException {
        sendText(json, Optional.of(Objects.requireNonNull(id, "id")));
    }

    private void sendText(String json, Optional<RequestId> answers) throws IOException {
        Objects.requireNonNull(json, "json");
        if (!lifecycle.acceptsSends()) {
            throw new IOException("the transport is closed; the message was not sent");
        }
        frames.sendEncoded(json, answers, moreComing());
    }

    /** The dispatcher answering while more requests wait queues, so that answers are coalesced. */
    private boolean moreComing() {
        return Thread.currentThread() == dispatcher && (lines.moreBuffered() || input.hasMore());
    }

    // ------------------------------------------------------------------ the threads

    private void writeLoop() {
        frames.run();
        IOException failure = frames.failure();
        if (failure != null) {
            terminate(TransportClosed.Reason.FAILED, failure);
        }
    }

    /**
     * The dispatcher reads what the reader thread took from the wire; the reader runs the
     * end-of-input rule when the wire ends, and reports a failed read.
     */
    private void dispatchLoop() {
        Optional<String> absent = wire.outputAbsence();
        if (absent.isPresent()) {
            dispatched.countDown();
            terminate(TransportClosed.Reason.FAILED, new IOException("stdout cannot carry answers: "
                    + absent.get() + "; no client can be reached"));
            return;
        }
        try {
            lines.run(input.input());
        } catch (IOException | RuntimeException e) {
            readFailed(e); // nothing when the pipe failed because the transport is closing
        } finally {
            dispatched.countDown();
        }
    }

    private void readFailed(Exception e) {
        if (!lifecycle.isClosing()) {
            terminate(TransportClosed.Reason.FAILED, new IOException("reading from the client failed: " + e.getMessage(), e));
        }
    }

    // ------------------------------------------------------------------ closing

    @Override
    public void close() {
        if (lifecycle.stopUnstarted()) {
            queue.close();
            if (options.releaseOnClose()) {
                wire.release();
            } else {
                wire.wake();
            }
            lifecycle.markClosed();
            return;
        }
        terminate(TransportClosed.Reason.CLOSED, null); // answers still owed are not waited for
    }

    /** The close, run once by the caller that wins it: see {@link TransportShutdown}. */
    private void terminate(TransportClosed.Reason reason, Throwable cause) {
        shutdown.run(reason, cause, false);
    }

    /** The largest the reader's line buffer has grown, in bytes (for tests of bounded memory). */
    int peakReadBufferBytes() {
        return lines == null ? 0 : lines.peakBufferBytes(); // set once, by start()
    }

    /** Options for a transport. */
    public static final class Builder {
        private WireSource source = new WireSource.ClaimAtBuild(Optional.empty());
        private JsonRpcCodec codec = JsonRpcCodec.standard();
        private int maxMessageBytes = 16 * 1024 * 1024;
        private Duration gracePeriod = Duration.ofSeconds(5);
        private long outboundQueueBytes = 32L * 1024 * 1024;
        private boolean answerDecodeErrors = true;
        private boolean hostWatch = !"false".equalsIgnoreCase(System.getProperty(HOST_WATCH_PROPERTY, "true"));
        private CompletableFuture<?> hostExitForTests;

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
         * Whether the session ends when the process that started this one exits, even while
         * stdin stays open, as at end of input (default true; {@code -Dmcpwire.stdio.host-watch=false}
         * turns it off). It watches the parent process as the JDK's {@link ProcessHandle} sees it
         * at start, so it cannot see a host that starts servers through a wrapper that stays
         * alive, nor a host that dies after this process was re-parented to a subreaper.
         */
        public Builder hostWatch(boolean watch) {
            this.hostWatch = watch;
            return this;
        }

        /** For tests: the host's exit, in place of the parent process's. */
        Builder hostExit(CompletableFuture<?> exit) {
            this.hostExitForTests = exit;
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
         * @throws ClaimRefusedException when another claim holds them
         */
        public StdioTransport build() {
            TransportOptions options = new TransportOptions(codec, maxMessageBytes, gracePeriod.toNanos(), outboundQueueBytes,
                    answerDecodeErrors, hostWatch, source.releaseOnClose(), Optional.ofNullable(hostExitForTests));
            Optional<StdioClaim> claim = source.claim();
            return new StdioTransport(options, claim.<Wire>map(StdioClaim::wire).orElseGet(source::callerStreams), claim);
        }
    }
}
