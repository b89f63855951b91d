package io.mcpwire.stdio;

import io.mcpwire.jsonrpc.DecodeError;
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
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private static final long JOIN_MILLIS = 2_000;
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
    private final PendingRequests pending = new PendingRequests();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean terminating = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile boolean acceptingSends = true;
    private volatile IOException writeFailure;
    private int failedFrames; // guarded by this
    private volatile TransportListener listener;
    private volatile LineFramer framer;
    private volatile Thread reader;
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
        reader = daemon(this::readLoop, "mcpwire-stdio-reader");
        writer.start();
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
        Frame frame = encode(message);
        // With nothing queued or being written, write at once (no hand-off to the writer thread),
        // unless this is the reader answering while more requests wait in its buffer: then the
        // writer gathers the answers into fewer, larger writes.
        boolean moreComing = Thread.currentThread() == reader && framer.moreBuffered();
        if (!moreComing && queue.claimIdleWriter()) {
            writeDirect(frame);
        } else {
            queue.put(frame);
        }
        if (message instanceof JsonRpcResponse && ((JsonRpcResponse) message).id() != null) {
            pending.settled(((JsonRpcResponse) message).id());
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
            out.write(part, 0, part.length);
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

    /** The client has gone (or takes no more): what was taken and what waits is lost; the writer thread closes. */
    private void writeFailed(Exception e, int frames) {
        if (terminating.get()) {
            return;
        }
        synchronized (this) {
            if (writeFailure == null) {
                writeFailure = new IOException("writing to the client failed: " + e.getMessage(), e);
                LOG.log(Level.DEBUG, "{0}", writeFailure.getMessage());
            }
            failedFrames += frames;
            failedFrames += queue.close(); // wakes the writer thread, which then reads failedFrames under this lock
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

    private void readLoop() {
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                deliver(codec.decode(buffer, offset, length));
            }

            @Override
            public void oversized(long length) {
                deliver(DecodeError.invalidRequest("a message of " + length + " bytes exceeds the limit of "
                        + maxMessageBytes + " bytes; it was skipped", null));
            }
        };
        try {
            while (framer.readFrom(in, sink)) {
                if (terminating.get()) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!terminating.get()) {
                terminate(TransportClosed.Reason.FAILED, new IOException("reading from the client failed: " + e.getMessage(), e));
            }
            return;
        }
        endOfInput();
    }

    private void deliver(DecodeResult result) {
        if (terminating.get()) {
            return; // the listener has been or is being told of the close
        }
        if (result instanceof DecodeResult.Decoded) {
            JsonRpcMessage m = ((DecodeResult.Decoded) result).message();
            if (m instanceof JsonRpcRequest) {
                pending.received(((JsonRpcRequest) m).id());
            } else if (m instanceof JsonRpcNotification && McpProtocol.CANCELLED.equals(((JsonRpcNotification) m).method())) {
                cancelled((JsonRpcNotification) m);
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
                LOG.log(Level.DEBUG, "could not answer an undecodable line: {0}", e.getMessage());
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

    /** The client closed its end: answer what was asked, then close. */
    private void endOfInput() {
        long deadline = System.nanoTime() + graceNanos;
        int unanswered = pending.awaitAnswered(deadline);
        if (unanswered > 0) {
            LOG.log(Level.WARNING, "end of input: {0} request(s) still unanswered after the grace period of {1} ms",
                    unanswered, TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
        terminate(TransportClosed.Reason.END_OF_INPUT, null, deadline, unanswered);
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
        pending.abandon(); // the server is closing now: stop waiting for answers
        terminate(TransportClosed.Reason.CLOSED, null);
    }

    private void terminate(TransportClosed.Reason reason, Throwable cause) {
        terminate(reason, cause, System.nanoTime() + graceNanos, 0);
    }

    /**
     * Runs once: lets the writer finish what is queued (until the deadline), stops both threads,
     * releases the claim, then tells the listener. Later callers wait for it, except the
     * transport's own threads, which the first caller joins.
     */
    private void terminate(TransportClosed.Reason reason, Throwable cause, long deadline, int unanswered) {
        if (!terminating.compareAndSet(false, true)) {
            if (!isTransportThread()) {
                awaitTerminated();
            }
            return;
        }
        try {
            if (reason != TransportClosed.Reason.END_OF_INPUT) {
                pending.abandon();
            }
            if (reason != TransportClosed.Reason.FAILED || Thread.currentThread() != writer) {
                queue.awaitDrained(deadline);
            }
            acceptingSends = false;
            int unwritten = queue.close() + failedFrames();
            if (writeFailure != null && reason == TransportClosed.Reason.END_OF_INPUT) {
                reason = TransportClosed.Reason.FAILED; // the answers could not be delivered
                cause = writeFailure;
            }
            closeQuietly(out); // wakes a writer still blocked on a client that does not read
            closeQuietly(in);  // wakes the reader
            if (claim != null && claim.canWakeReader()) {
                join(reader); // otherwise it is a daemon blocked on a stream no one can wake
            }
            join(writer);
            if (claim != null) {
                claim.close();
            }
            int dropped = unwritten + unanswered;
            if (dropped > 0) {
                LOG.log(Level.WARNING, "the transport closed with {0} message(s) dropped ({1} unwritten, {2} unanswered)",
                        dropped, unwritten, unanswered);
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

    private void closeQuietly(java.io.Closeable c) {
        if (claim == null) {
            return; // explicit streams belong to the caller; the daemon reader ends with its input
        }
        try {
            c.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing a wire stream: {0}", e.getMessage());
        }
    }

    private synchronized int failedFrames() {
        return failedFrames;
    }

    private boolean isTransportThread() {
        Thread t = Thread.currentThread();
        return t == reader || t == writer;
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
