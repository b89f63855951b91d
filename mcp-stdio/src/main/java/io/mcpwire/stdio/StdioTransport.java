package io.mcpwire.stdio;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.stdio.engine.FrameBuilder;
import io.mcpwire.stdio.engine.InboundPipe;
import io.mcpwire.stdio.engine.LineFramer;
import io.mcpwire.stdio.engine.OutboundQueue;
import io.mcpwire.stdio.engine.OutboundQueue.Frame;
import io.mcpwire.stdio.engine.PendingRequests;
import io.mcpwire.transport.McpTransport;
import io.mcpwire.transport.MessageTooLargeException;
import io.mcpwire.transport.TransportClosed;
import io.mcpwire.transport.TransportListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * The MCP stdio transport: newline-delimited JSON-RPC over a {@link StdioClaim} (the real
 * standard streams, isolated while it serves) or over streams passed in explicitly (which claim
 * nothing).
 *
 * <pre>{@code
 * StdioTransport transport = StdioTransport.create();   // claims stdin and stdout
 * transport.start(listener);                            // messages arrive on the reader thread
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
 * <p>Threads: one reader and one writer, both daemons. Sends are thread-safe, whole frames, in
 * call order, coalesced by the writer under load, and block while the bounded outbound queue is
 * full. At end of input the transport waits (up to the grace period) for the answers to every
 * request received, writes them, releases the claim, and only then tells the listener.
 */
public final class StdioTransport implements McpTransport {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");
    private static final int WRITE_BATCH = 64 * 1024;
    private static final int READ_CHUNK = 64 * 1024;
    private static final int PROGRESS_SLICE = 64 * 1024;
    private static final long INBOUND_BYTES = 4L * 1024 * 1024;
    private static final long JOIN_MILLIS = 2_000;
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Each sending thread encodes into its own builder. */
    private static final ThreadLocal<FrameBuilder> ENCODING = ThreadLocal.withInitial(FrameBuilder::new);

    private final StdioClaim claim;
    private final InputStream in;
    private final OutputStream out;
    private final boolean flushAfterWrite;
    private final JsonRpcCodec codec;
    private final int maxMessageBytes;
    private final long graceNanos;
    private final boolean answerDecodeErrors;
    private final OutboundQueue queue;
    private final InboundPipe inbound = new InboundPipe(INBOUND_BYTES);
    private final PendingRequests pending = new PendingRequests();
    /** Counts every step forward (a line dispatched, an answer settled, a part written): the grace clock. */
    private final AtomicLong progress = new AtomicLong();
    /** Frames a write failed for, in flight when the client went or was abandoned. */
    private final AtomicInteger failedFrames = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean terminating = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CountDownLatch dispatched = new CountDownLatch(1);
    private volatile boolean acceptingSends = true;
    private volatile boolean closing;
    private volatile IOException writeFailure;
    private volatile TransportListener listener;
    private volatile LineFramer framer;
    private volatile Thread reader;
    private volatile Thread dispatcher;
    private volatile Thread writer;

    private StdioTransport(Builder b, StdioClaim claim) {
        this.claim = claim;
        this.in = claim != null ? claim.input() : b.input;
        this.out = claim != null ? claim.output() : b.output;
        this.flushAfterWrite = claim == null;
        this.codec = b.codec;
        this.maxMessageBytes = b.maxMessageBytes;
        this.graceNanos = b.gracePeriod.toNanos();
        this.answerDecodeErrors = b.answerDecodeErrors;
        this.queue = new OutboundQueue(Math.max(b.outboundQueueBytes, 1));
    }

    /** A transport over the real standard streams, claimed now with the chosen provider. */
    public static StdioTransport create() {
        return builder().build();
    }

    /** A builder, to pass a claim or streams, or change the limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** The claim this transport serves over and will release, or null for explicit streams. */
    public StdioClaim claim() {
        return claim;
    }

    @Override
    public void start(TransportListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (terminating.get()) {
            throw new IllegalStateException("the transport is closed");
        }
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("the transport is already started");
        }
        this.listener = listener;
        this.framer = new LineFramer(maxMessageBytes);
        writer = daemon(this::writeLoop, "mcpwire-stdio-writer");
        dispatcher = daemon(this::dispatchLoop, "mcpwire-stdio-dispatcher");
        reader = daemon(this::readLoop, "mcpwire-stdio-reader");
        writer.start();
        dispatcher.start();
        reader.start();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true); // a transport thread never keeps the JVM alive
        return t;
    }

    // ------------------------------------------------------------------ sending

    @Override
    public void send(JsonRpcMessage message) throws IOException {
        Objects.requireNonNull(message, "message");
        if (!acceptingSends) {
            throw new IOException("the transport is closed; the message was not sent");
        }
        JsonRpcResponse answer = message instanceof JsonRpcResponse r && r.id() != null ? r : null;
        Frame frame;
        try {
            frame = encode(message);
        } catch (MessageTooLargeException e) {
            if (answer != null) {
                // Every request gets one answer: a bounded error stands in for one that does not fit.
                deliver(standIn(answer, e), answer);
            }
            throw e;
        }
        deliver(frame, answer);
    }

    /** Writes or queues a frame; an answer whose frame was taken is no longer owed, whatever the write does. */
    private void deliver(Frame frame, JsonRpcResponse answer) throws IOException {
        boolean taken = false;
        try {
            // With nothing queued or being written, write at once (no hand-off to the writer
            // thread), unless this is the dispatcher answering while more requests wait: then the
            // writer gathers the answers into fewer, larger writes.
            boolean moreComing = Thread.currentThread() == dispatcher && (framer.moreBuffered() || inbound.hasMore());
            if (!moreComing && queue.claimIdleWriter()) {
                taken = true;
                writeDirect(frame);
            } else {
                queue.put(frame);
                taken = true;
            }
        } finally {
            if (taken && answer != null && pending.settled(answer.id())) {
                progress.incrementAndGet();
            }
        }
    }

    /** The error that replaces an answer over the size limit: with its id when that fits, else with a null id. */
    private Frame standIn(JsonRpcResponse answer, MessageTooLargeException e) throws MessageTooLargeException {
        String why = "the answer of " + e.size() + " bytes exceeds the transport's limit of " + e.limit() + " bytes";
        try {
            return encode(JsonRpcError.of(answer.id(), ErrorCodes.INTERNAL_ERROR, why));
        } catch (MessageTooLargeException idTooLong) {
            return encode(JsonRpcError.of(null, ErrorCodes.INTERNAL_ERROR,
                    why + "; the request id is too long to repeat within the limit"));
        }
    }

    /** Encodes into this thread's frame builder. */
    private Frame encode(JsonRpcMessage message) throws MessageTooLargeException {
        FrameBuilder builder = ENCODING.get();
        builder.reset();
        codec.encode(message, builder);
        long size = builder.size();
        if (size > maxMessageBytes) {
            builder.reset(); // let the chunks go
            throw new MessageTooLargeException(size, maxMessageBytes);
        }
        return builder.toFrame();
    }

    private void writeParts(Frame frame) throws IOException {
        for (byte[] part : frame.parts()) {
            // In slices, so that a slow client that keeps reading shows progress to the grace clock.
            for (int off = 0; off < part.length; off += PROGRESS_SLICE) {
                out.write(part, off, Math.min(PROGRESS_SLICE, part.length - off));
                progress.incrementAndGet();
            }
        }
    }

    private void writeDirect(Frame frame) throws IOException {
        try {
            writeParts(frame);
            if (flushAfterWrite) {
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            writeFailed(e, 1);
            throw new IOException("writing to the client failed: " + e.getMessage(), e);
        } finally {
            queue.written();
        }
    }

    /**
     * A write failed: the client has gone, takes no more, or was abandoned. The frames in flight
     * are lost and counted; what waits in the queue is dropped (and counted when the transport
     * closes); the writer thread ends.
     */
    private void writeFailed(Exception e, int frames) {
        failedFrames.addAndGet(frames);
        if (!terminating.get() && writeFailure == null) {
            writeFailure = new IOException("writing to the client failed: " + e.getMessage(), e);
            LOG.log(Level.DEBUG, "{0}", writeFailure.getMessage());
        }
        if (!terminating.get()) {
            failedFrames.addAndGet(queue.close()); // wakes the writer thread
        }
    }

    private void writeLoop() {
        byte[] batchBuffer = new byte[WRITE_BATCH];
        while (true) {
            List<Frame> batch = queue.take(WRITE_BATCH);
            if (batch == null) {
                break;
            }
            try {
                if (batch.size() == 1) {
                    writeParts(batch.get(0));
                } else {
                    int n = 0; // small frames, one part each: coalesced into one write
                    for (Frame f : batch) {
                        System.arraycopy(f.parts()[0], 0, batchBuffer, n, f.length());
                        n += f.length();
                    }
                    out.write(batchBuffer, 0, n);
                    progress.incrementAndGet();
                }
                if (flushAfterWrite) {
                    out.flush();
                }
            } catch (IOException | RuntimeException e) {
                writeFailed(e, batch.size());
            } finally {
                queue.written();
            }
        }
        IOException failure = writeFailure;
        if (failure != null) {
            terminate(TransportClosed.Reason.FAILED, failure);
        }
    }

    // ------------------------------------------------------------------ reading

    /**
     * The reader thread only reads: it hands the bytes to the dispatcher, so it sees end of input
     * whatever the dispatcher and the writer are doing, and then runs the end-of-input rule.
     */
    private void readLoop() {
        if (claim != null && claim.outputAbsent()) {
            inbound.end();
            terminate(TransportClosed.Reason.FAILED, new IOException("stdout cannot carry answers: "
                    + claim.outputAbsentReason() + "; no client can be reached"));
            return;
        }
        byte[] buffer = new byte[READ_CHUNK];
        try {
            while (true) {
                int n = in.read(buffer, 0, buffer.length);
                if (n < 0) {
                    break;
                }
                if (n > 0 && !inbound.put(Arrays.copyOf(buffer, n))) {
                    return; // closing
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!terminating.get()) {
                IOException failure = new IOException("reading from the client failed: " + e.getMessage(), e);
                inbound.fail(failure);
                terminate(TransportClosed.Reason.FAILED, failure);
            }
            return;
        }
        inbound.end();
        endOfInput();
    }

    private void dispatchLoop() {
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                dispatch(codec.decode(buffer, offset, length));
            }

            @Override
            public void oversized(long length) {
                dispatch(DecodeError.invalidRequest("a message of " + length + " bytes exceeds the limit of "
                        + maxMessageBytes + " bytes; it was skipped", null));
            }
        };
        InputStream wire = inbound.input();
        try {
            while (framer.readFrom(wire, sink) && !terminating.get()) {
                // each read hands complete lines to the sink
            }
        } catch (IOException | RuntimeException e) {
            // the reader thread or close() has the ending in hand
        } finally {
            dispatched.countDown();
        }
    }

    private void dispatch(DecodeResult result) {
        if (terminating.get()) {
            return; // the listener has been or is being told of the close
        }
        progress.incrementAndGet();
        if (result instanceof DecodeResult.Decoded decoded) {
            JsonRpcMessage m = decoded.message();
            if (m instanceof JsonRpcRequest request) {
                pending.received(request.id());
            } else if (m instanceof JsonRpcNotification n && McpProtocol.CANCELLED.equals(n.method())) {
                cancelled(n);
            }
            try {
                listener.onMessage(m);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "the listener failed on a message; serving goes on", e);
            }
            return;
        }
        DecodeError error = (DecodeError) result;
        LOG.log(Level.DEBUG, "undecodable line: {0}", error.message());
        if (answerDecodeErrors) {
            try {
                send(error.toResponse());
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not answer an undecodable line: {0}", e.getMessage());
            }
        }
        try {
            listener.onDecodeError(error);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "the listener failed on a decode error; serving goes on", e);
        }
    }

    /** A cancelled request needs no answer (MCP), so end of input does not wait for one. */
    private void cancelled(JsonRpcNotification n) {
        JsonNode id = n.params() != null ? n.params().get("requestId") : null;
        if (id != null && id.isString()) {
            pending.settled(RequestId.of(id.stringValue()));
        } else if (id != null && id.canConvertToLong() && id.isIntegralNumber()) {
            pending.settled(RequestId.of(id.longValue()));
        }
    }

    /**
     * The client closed its end (the shutdown rule): every line it sent is dispatched and every
     * request answered while anything moves; after a whole grace period without progress, what
     * is owed is dropped and counted.
     */
    private void endOfInput() {
        if (!awaitWhileProgressing(() -> dispatched.getCount() == 0 && pending.count() == 0)) {
            LOG.log(Level.WARNING, "end of input: {0} request(s) still unanswered after {1} ms without progress",
                    pending.count(), TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
        terminate(TransportClosed.Reason.END_OF_INPUT, null);
    }

    /**
     * Waits until {@code done}, or until nothing has progressed for the grace period, or close()
     * stops waiting for answers; true when done.
     */
    private boolean awaitWhileProgressing(BooleanSupplier done) {
        long seen = progress.get();
        long since = System.nanoTime();
        while (!done.getAsBoolean()) {
            long now = System.nanoTime();
            long p = progress.get();
            if (p != seen) {
                seen = p;
                since = now;
            } else if (now - since >= graceNanos) {
                return false;
            }
            LockSupport.parkNanos(Math.min(TICK_NANOS, graceNanos));
        }
        return true;
    }

    // ------------------------------------------------------------------ closing

    @Override
    public void close() {
        if (!started.get()) {
            if (terminating.compareAndSet(false, true)) {
                acceptingSends = false;
                queue.close();
                if (claim != null) {
                    claim.close();
                }
                terminated.countDown();
            }
            return;
        }
        closing = true; // the server is closing now: answers still owed are not waited for
        terminate(TransportClosed.Reason.CLOSED, null);
    }

    /**
     * Runs once (the lifecycle's last step): writes what is queued while the client reads it,
     * stops the threads, counts what was lost, releases the claim, then tells the listener.
     * Later callers wait for it, except the transport's own threads, which the first caller joins.
     */
    private void terminate(TransportClosed.Reason reason, Throwable cause) {
        if (!terminating.compareAndSet(false, true)) {
            if (!isTransportThread()) {
                awaitTerminated();
            }
            return;
        }
        try {
            if (reason != TransportClosed.Reason.FAILED || Thread.currentThread() != writer) {
                awaitWhileProgressing(queue::isIdle);
            }
            acceptingSends = false;
            int unwritten = queue.close();
            wake(out); // a writer still blocked on a client that does not read: its frame is lost and counted
            wake(in);  // the reader
            inbound.close();
            if (claim == null || claim.canWakeReader()) {
                join(reader); // otherwise it is a daemon blocked on a stream no one can wake
            }
            join(dispatcher);
            join(writer);
            int unanswered = reason == TransportClosed.Reason.CLOSED || closing ? 0 : pending.count();
            int dropped = unwritten + failedFrames.get() + unanswered;
            if (writeFailure != null && reason == TransportClosed.Reason.END_OF_INPUT) {
                reason = TransportClosed.Reason.FAILED; // the answers could not be delivered
                cause = writeFailure;
            }
            if (claim != null) {
                claim.close();
            }
            if (dropped > 0) {
                LOG.log(Level.WARNING, "the transport closed ({0}) with {1} message(s) lost ({2} unwritten, "
                        + "{3} cut off or failed in writing, {4} unanswered)",
                        reason, dropped, unwritten, failedFrames.get(), unanswered);
            }
            try {
                listener.onClosed(new TransportClosed(reason, cause, dropped));
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "the listener failed on close", e);
            }
        } finally {
            terminated.countDown();
        }
    }

    private void wake(java.io.Closeable c) {
        if (claim == null) {
            return; // explicit streams belong to the caller; the daemon reader ends with its input
        }
        try {
            c.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing a wire stream: {0}", e.getMessage());
        }
    }

    private boolean isTransportThread() {
        Thread t = Thread.currentThread();
        return t == reader || t == dispatcher || t == writer;
    }

    private static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitTerminated() {
        try {
            terminated.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The largest the reader's line buffer has grown, in bytes (for tests of bounded memory). */
    int peakReadBufferBytes() {
        LineFramer f = framer;
        return f == null ? 0 : f.peakBufferBytes();
    }

    /** Options for a transport. */
    public static final class Builder {
        private StdioClaim claim;
        private PlatformDescriptors platform;
        private InputStream input;
        private OutputStream output;
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
         */
        public Builder claim(StdioClaim claim) {
            this.claim = Objects.requireNonNull(claim, "claim");
            return this;
        }

        /** The platform provider for the claim the transport takes itself (see {@code docs/platforms.md}). */
        public Builder platform(PlatformDescriptors platform) {
            this.platform = platform;
            return this;
        }

        /**
         * Serves these streams as given and claims nothing. The caller keeps them: the transport
         * flushes the output but closes neither.
         */
        public Builder streams(InputStream input, OutputStream output) {
            this.input = Objects.requireNonNull(input, "input");
            this.output = Objects.requireNonNull(output, "output");
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
            this.gracePeriod = Objects.requireNonNull(grace, "grace");
            return this;
        }

        /** How many bytes of frames may wait for the writer before {@code send} blocks (default 32 MiB). */
        public Builder outboundQueueBytes(long bytes) {
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
            if (claim != null && input != null) {
                throw new IllegalStateException("give a claim or streams, not both");
            }
            StdioClaim c = claim;
            if (c == null && input == null) {
                c = StdioClaim.builder().platform(platform).acquire();
            }
            return new StdioTransport(this, c);
        }
    }
}
