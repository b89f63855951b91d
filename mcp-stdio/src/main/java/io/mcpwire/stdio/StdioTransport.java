package io.mcpwire.stdio;

import static io.mcpwire.stdio.claim.StdioLog.LOG;

import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.transport.Daemons;
import io.mcpwire.stdio.transport.FrameWriter;
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
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * <p>Threads and locks (all threads daemons, all made by {@code Daemons}):
 *
 * <table>
 * <caption>Who owns what</caption>
 * <tr><th>thread</th><th>owns</th><th>blocks in</th></tr>
 * <tr><td>{@code mcpwire-stdio-dispatcher}</td><td>reading the wire while {@link WireInput} is
 *     DIRECT, framing ({@code LineFramer}), decoding, the listener's {@code onMessage}; answering
 *     undecodable lines</td><td>a read of the wire or of the inbound pipe; a send on a full queue</td></tr>
 * <tr><td>{@code mcpwire-stdio-writer}</td><td>writing queued frames ({@link FrameWriter})</td>
 *     <td>{@link OutboundQueue#take}; a write the client does not read</td></tr>
 * <tr><td>{@code mcpwire-stdio-reader} (the pump, from the first stall on)</td><td>reading the
 *     wire into the inbound pipe, and reporting its end</td><td>a read of the wire; a full pipe</td></tr>
 * <tr><td>any caller of {@link #send}</td><td>encoding its message; writing it itself when the
 *     queue is empty and idle ({@link OutboundQueue#claimIdleWriter})</td><td>a full queue; its own
 *     direct write</td></tr>
 * <tr><td>the close's winner (any of the above, or the caller of {@link #close})</td><td>the
 *     close, start to end ({@link Lifecycle}): the queue closed, the wire woken, the threads
 *     joined, the claim released, {@code onClosed}</td><td>the grace waits; the joins</td></tr>
 * </table>
 *
 * <table>
 * <caption>Which lock guards what</caption>
 * <tr><th>lock</th><th>guards</th></tr>
 * <tr><td>{@code OutboundQueue.lock}</td><td>the queued frames, their bytes, who is writing;
 *     {@code notEmpty}, {@code notFull}</td></tr>
 * <tr><td>{@code WireInput.lock}</td><td>who reads the wire (its {@code Reader} state)</td></tr>
 * <tr><td>{@code InboundPipe.lock}</td><td>the pumped bytes not yet read</td></tr>
 * <tr><td>{@code PendingRequests.lock}</td><td>the requests received and not yet answered</td></tr>
 * <tr><td>{@code FrameWriter}'s monitor</td><td>the first write failure</td></tr>
 * <tr><td>{@code ClaimedWire}'s monitor (under a claim)</td><td>the release, once</td></tr>
 * <tr><td>none: {@link Lifecycle}, {@code Progress}</td><td>compare-and-set, and a clock read
 *     every 10 ms</td></tr>
 * </table>
 *
 * <p>One order: {@code WireInput.lock} before {@code InboundPipe.lock} (closing the pipe, and
 * starting the pump thread, happen under the former); no other lock is taken while one is held.
 * No callback runs under a lock: the stall report ({@code WireInput.pump}) runs after the
 * queue's lock is released, and the listener is called with no lock of the transport's held.
 */
public final class StdioTransport implements McpTransport {
    private static final long INBOUND_BYTES = 4L * 1024 * 1024;
    private static final long JOIN_MILLIS = 2_000;

    private final Wire wire;
    private final Optional<StdioClaim> claim;
    private final JsonRpcCodec codec;
    private final int maxMessageBytes;
    private final long graceNanos;
    private final boolean answerDecodeErrors;
    private final Lifecycle lifecycle = new Lifecycle();
    private final OutboundQueue queue;
    private final WireInput input;
    private final PendingRequests pending = new PendingRequests();
    private final Progress progress = new Progress();
    private final FrameWriter frames;
    private final CountDownLatch dispatched = new CountDownLatch(1);
    // Set by start(), read after it by the transport's own threads and by closing.
    private volatile TransportListener listener;
    private volatile LineDispatcher lines;
    private volatile Thread dispatcher;
    private volatile Thread writer;

    private StdioTransport(Builder b, Wire wire, Optional<StdioClaim> claim) {
        this.wire = wire;
        this.claim = claim;
        this.codec = b.codec;
        this.maxMessageBytes = b.maxMessageBytes;
        this.graceNanos = b.gracePeriod.toNanos();
        this.answerDecodeErrors = b.answerDecodeErrors;
        this.input = new WireInput(wire.input(), INBOUND_BYTES, this::endOfInput, this::readFailed);
        // A stalled output hands the reading to a thread of its own, so end of input is still seen.
        this.queue = new OutboundQueue(b.outboundQueueBytes, input::pump);
        this.frames = new FrameWriter(wire.output(), wire.outputBuffered(), codec, maxMessageBytes, queue, pending, progress);
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
        this.listener = listener;
        this.lines = new LineDispatcher(codec, maxMessageBytes, pending, progress, listener, this::send,
                answerDecodeErrors, lifecycle::isClosing);
        writer = Daemons.thread(this::writeLoop, "mcpwire-stdio-writer");
        dispatcher = Daemons.thread(this::dispatchLoop, "mcpwire-stdio-dispatcher");
        writer.start();
        dispatcher.start();
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
     * The dispatcher reads the wire itself until the output stalls (see {@link WireInput}); when it
     * saw the end of input itself, it runs the end-of-input rule, else the pump thread does.
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
            if (!input.pumped()) {
                readFailed(e);
            }
            return; // pumped: the pipe failed because the transport is closing, or the pump reports it
        } finally {
            dispatched.countDown();
        }
        if (!input.pumped() && !lifecycle.isClosing()) {
            endOfInput();
        }
    }

    private void readFailed(Exception e) {
        if (!lifecycle.isClosing()) {
            terminate(TransportClosed.Reason.FAILED, new IOException("reading from the client failed: " + e.getMessage(), e));
        }
    }

    /**
     * The client closed its end (the shutdown rule): every line it sent is dispatched and every
     * request answered while anything moves; after a whole grace period without progress, what
     * is owed is dropped and counted. A close() meanwhile ends the wait.
     */
    private void endOfInput() {
        boolean answered = progress.await(
                () -> lifecycle.isClosing() || (dispatched.getCount() == 0 && pending.count() == 0), graceNanos);
        if (!answered) {
            LOG.log(Level.WARNING, "end of input: {0} request(s) still unanswered after {1} ms without progress",
                    pending.count(), TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
        terminate(TransportClosed.Reason.END_OF_INPUT, null);
    }

    // ------------------------------------------------------------------ closing

    @Override
    public void close() {
        if (lifecycle.stopUnstarted()) {
            queue.close();
            wire.release();
            lifecycle.closed();
            return;
        }
        terminate(TransportClosed.Reason.CLOSED, null); // answers still owed are not waited for
    }

    /**
     * The close, run once by the caller that wins it (see {@link Lifecycle} for the rules):
     * writes what is queued while the client reads it, stops the threads, counts what was lost,
     * releases the wire, then tells the listener. Later callers wait for it, except the
     * transport's own threads, which the winner joins.
     */
    private void terminate(TransportClosed.Reason reason, Throwable cause) {
        if (!lifecycle.beginClose()) {
            if (!isTransportThread()) {
                lifecycle.awaitClosed();
            }
            return;
        }
        try {
            if (reason != TransportClosed.Reason.FAILED || Thread.currentThread() != writer) {
                progress.await(queue::isIdle, graceNanos);
            }
            lifecycle.stopSends();
            int unwritten = queue.close();
            frames.stopping();
            // A writer still blocked on a client that does not read loses its frame, counted.
            boolean readersLeave = wire.wake();
            input.close();
            if (readersLeave) {
                Daemons.join(input.pumpThread(), JOIN_MILLIS); // otherwise a daemon blocked on a stream no one can wake
                Daemons.join(dispatcher, JOIN_MILLIS);
            }
            Daemons.join(writer, JOIN_MILLIS);
            int unanswered = reason == TransportClosed.Reason.CLOSED ? 0 : pending.count() + lines.abandoned();
            int dropped = unwritten + frames.failedFrames() + unanswered;
            if (frames.failure() != null && reason == TransportClosed.Reason.END_OF_INPUT) {
                reason = TransportClosed.Reason.FAILED; // the answers could not be delivered
                cause = frames.failure();
            }
            wire.release();
            if (dropped > 0) {
                LOG.log(Level.WARNING, "the transport closed ({0}) with {1} message(s) lost ({2} unwritten, "
                        + "{3} cut off or failed in writing, {4} unanswered)",
                        reason, dropped, unwritten, frames.failedFrames(), unanswered);
            }
            try {
                listener.onClosed(new TransportClosed(reason, cause, dropped));
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "the listener failed on close", e);
            }
        } finally {
            lifecycle.closed();
        }
    }

    private boolean isTransportThread() {
        Thread t = Thread.currentThread();
        return t == input.pumpThread() || t == dispatcher || t == writer;
    }

    /** The largest the reader's line buffer has grown, in bytes (for tests of bounded memory). */
    int peakReadBufferBytes() {
        LineDispatcher d = lines;
        return d == null ? 0 : d.peakBufferBytes();
    }

    /** Options for a transport. */
    public static final class Builder {
        private WireSource source = new WireSource.ClaimAtBuild(Optional.empty());
        private JsonRpcCodec codec = JsonRpcCodec.standard();
        private int maxMessageBytes = 16 * 1024 * 1024;
        private Duration gracePeriod = Duration.ofSeconds(5);
        private long outboundQueueBytes = 32L * 1024 * 1024;
        private boolean answerDecodeErrors = true;

        private Builder() {
        }

        /**
         * Serves over a claim taken earlier (say, first thing in {@code main}); the transport
         * releases it when it closes.
         *
         * @throws IllegalStateException when streams were given
         */
        public Builder claim(StdioClaim claim) {
            Objects.requireNonNull(claim, "claim");
            requireOnlySource("a claim");
            source = new WireSource.GivenClaim(claim);
            return this;
        }

        /** Refuses a second source of the wire: a claim, streams, or a platform for the transport's own claim. */
        private void requireOnlySource(String what) {
            boolean given = !(source instanceof WireSource.ClaimAtBuild own) || own.platform().isPresent();
            if (given) {
                throw new IllegalStateException("give a claim, streams or a platform, only one of them (" + what
                        + " after " + source.describe() + ")");
            }
        }

        /**
         * The platform provider for the claim the transport takes itself (see
         * {@code docs/platforms.md}); null chooses one.
         *
         * @throws IllegalStateException when a claim, streams or another platform was given
         */
        public Builder platform(PlatformDescriptors platform) {
            if (platform != null) {
                requireOnlySource("a platform");
            }
            source = new WireSource.ClaimAtBuild(Optional.ofNullable(platform));
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
            requireOnlySource("streams");
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
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes < 1");
            }
            this.maxMessageBytes = bytes;
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
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes < 1");
            }
            this.outboundQueueBytes = bytes;
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
            Optional<StdioClaim> claim = source.claim();
            return new StdioTransport(this, claim.<Wire>map(StdioClaim::wire).orElseGet(source::callerStreams), claim);
        }
    }
}
