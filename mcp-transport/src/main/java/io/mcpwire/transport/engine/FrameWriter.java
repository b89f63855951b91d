package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.TransportLog.LOG;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.MessageEncoder;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.transport.engine.OutboundQueue.Frame;
import io.mcpwire.jsonrpc.MessageTooLargeException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The transport's output side: encodes messages into frames on the sending thread, writes them
 * at once when the wire is idle or queues them for the writer thread ({@link #run()}), which
 * coalesces small ones, and counts what a failed write lost. Every answer leaves the pending set
 * once its frame is taken, whatever the write then does; an answer over the size limit is
 * replaced by a bounded error, so that every request is answered once.
 */
public final class FrameWriter implements Runnable {
    /** Frames are written in slices of this size, so that a slow reader shows progress. */
    private static final int SLICE = 64 * 1024;
    /** Each sending thread encodes into its own builder, through an encoder of its own. */
    private final ThreadLocal<Encoding> encoding;

    private final OutputStream out;
    private final boolean flushAfterWrite;
    private final int maxMessageBytes;
    private final OutboundQueue queue;
    private final PendingRequests pending;
    private final Progress progress;
    /** Frames a write failed for: in flight when the client went, or when it was abandoned. */
    private final AtomicInteger failedFrames = new AtomicInteger();
    /** The transport's phase: from STOPPING on, a failed write is the close's own doing. */
    private final Lifecycle lifecycle;
    private volatile IOException failure;
    /** The host watch, which must know the host before anything written here can reach it. */
    private final HostWatcher hostWatch;

    /**
     * @param out             the wire
     * @param flushAfterWrite whether to flush after each write (streams the caller passed in)
     * @param queue           the frames waiting for the writer thread
     * @param pending         the requests owed an answer
     * @param progress        the grace clock
     * @param lifecycle       the transport's phase
     * @param hostWatch       the host watch, waited for before the first write ({@link HostWatcher#awaitAncestry()})
     */
    public FrameWriter(OutputStream out, boolean flushAfterWrite, JsonRpcCodec codec, int maxMessageBytes,
                       OutboundQueue queue, PendingRequests pending, Progress progress, Lifecycle lifecycle,
                       HostWatcher hostWatch) {
        this.out = out;
        this.hostWatch = hostWatch;
        this.flushAfterWrite = flushAfterWrite;
        this.maxMessageBytes = maxMessageBytes;
        this.queue = queue;
        this.pending = pending;
        this.progress = progress;
        this.lifecycle = lifecycle;
        this.encoding = new ThreadLocal<>() {
            @Override
            protected Encoding initialValue() {
                return Encoding.of(codec);
            }
        };
    }

    /** A sending thread's builder and the encoder that writes onto it. */
    private record Encoding(FrameBuilder builder, MessageEncoder encoder) {
        static Encoding of(JsonRpcCodec codec) {
            FrameBuilder builder = new FrameBuilder();
            return new Encoding(builder, codec.encoder(builder));
        }
    }

    /**
     * Encodes and writes or queues {@code message}. With {@code holdBack} ({@link AnswerBatching})
     * it always queues, and the writer waits a little for the answers to come, to write them
     * together ({@link OutboundQueue}).
     *
     * @throws MessageTooLargeException when the message exceeds the limit (an answer is then
     *                                  replaced by a bounded error, which is sent)
     * @throws IOException              when the transport is closed or the write failed
     */
    public void send(JsonRpcMessage message, boolean holdBack) throws IOException {
        Optional<RequestId> answers = message instanceof JsonRpcResponse r ? Optional.ofNullable(r.id()) : Optional.empty();
        Frame frame;
        try {
            frame = encode(message);
        } catch (MessageTooLargeException e) {
            if (answers.isPresent()) {
                deliver(standIn(answers.get(), message, e), answers, holdBack);
            }
            throw e;
        }
        deliver(frame, answers, holdBack);
    }

    /**
     * Writes or queues one JSON-RPC message that the caller encoded itself, without decoding it
     * again. Line breaks, which valid JSON holds only as whitespace between tokens, become spaces,
     * so that it stays one line.
     *
     * @param answers the request it answers, settled as a decoded response's would be
     * @throws MessageTooLargeException when the message exceeds the limit (an answer is then
     *                                  replaced by a bounded error, which is sent)
     * @throws IOException              when the transport is closed or the write failed
     */
    public void sendEncoded(String json, Optional<RequestId> answers, boolean holdBack) throws IOException {
        byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > maxMessageBytes) {
            MessageTooLargeException e = new MessageTooLargeException(utf8.length, maxMessageBytes);
            if (answers.isPresent()) {
                deliver(standIn(answers.get(), null, e), answers, holdBack);
            }
            throw e;
        }
        byte[] line = Arrays.copyOf(utf8, utf8.length + 1);
        for (int i = 0; i < utf8.length; i++) {
            if (line[i] == '\n' || line[i] == '\r') {
                line[i] = ' ';
            }
        }
        line[utf8.length] = '\n';
        deliver(new Frame(new byte[][] {line}, line.length), answers, holdBack);
    }

    private void deliver(Frame frame, Optional<RequestId> answers, boolean holdBack) throws IOException {
        boolean taken = false;
        try {
            if (!holdBack && queue.claimIdleWriter()) {
                taken = true;
                writeDirect(frame); // no hand-off to the writer thread when the wire is idle
            } else {
                queue.put(frame, holdBack);
                taken = true;
            }
        } finally {
            if (taken && answers.isPresent() && pending.settled(answers.get())) {
                progress.step();
            }
        }
    }

    /**
     * The bounded error that replaces an answer over the size limit, so that its request is
     * answered once: with its id when that fits, else with a null id. An error keeps its code (an
     * invalid request stays -32600 when its id has to go); a result too large is -32603.
     *
     * @param answer the answer it replaces, or null when only its encoded size is known
     */
    private Frame standIn(RequestId id, JsonRpcMessage answer, MessageTooLargeException e) throws MessageTooLargeException {
        String tooLarge = e.size() + " bytes exceeds the transport's limit of " + e.limit() + " bytes";
        int code = ErrorCodes.INTERNAL_ERROR;
        String why = "the answer of " + tooLarge;
        if (answer instanceof JsonRpcError error) {
            code = error.error().code();
            why = JsonRpcError.quote(error.error().message()) + " (the error of " + tooLarge + ")";
        }
        try {
            return encode(JsonRpcError.of(id, code, why));
        } catch (MessageTooLargeException idTooLong) {
            return encode(JsonRpcError.of(null, code, why + "; the request id is too long to repeat within the limit"));
        }
    }

    private Frame encode(JsonRpcMessage message) throws MessageTooLargeException {
        Encoding e = encoding.get();
        FrameBuilder builder = e.builder();
        builder.reset();
        e.encoder().encode(message);
        long size = builder.size();
        if (size > maxMessageBytes) {
            builder.reset(); // let the chunks go
            throw new MessageTooLargeException(size, maxMessageBytes);
        }
        return builder.toFrame();
    }

    private void writeDirect(Frame frame) throws IOException {
        try {
            hostWatch.awaitAncestry(); // the first write waits until the watch knows the host
            writeParts(frame);
            if (flushAfterWrite) {
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            failed(e, 1);
            throw new IOException("writing to the client failed: " + e.getMessage(), e);
        } finally {
            queue.written();
        }
    }

    private void writeParts(Frame frame) throws IOException {
        for (byte[] part : frame.parts()) {
            for (int off = 0; off < part.length; off += SLICE) {
                out.write(part, off, Math.min(SLICE, part.length - off));
                progress.step();
            }
        }
    }

    /** The writer thread: writes what is queued until the queue is closed and empty. */
    @Override
    public void run() {
        byte[] batchBuffer = new byte[OutboundQueue.BATCH_BYTES];
        List<Frame> batch;
        while ((batch = queue.take()) != null) {
            writeBatch(batch, batchBuffer);
        }
    }

    /** Writes one batch the writer thread took; small frames, together at most a batch, as one write. */
    private void writeBatch(List<Frame> batch, byte[] batchBuffer) {
        try {
            hostWatch.awaitAncestry(); // the first write waits until the watch knows the host
            if (batch.size() == 1) {
                writeParts(batch.get(0));
            } else {
                out.write(batchBuffer, 0, coalesce(batch, batchBuffer));
                progress.step();
            }
            if (flushAfterWrite) {
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            failed(e, batch.size());
        } catch (Error e) {
            failed(new IOException("the writer failed: " + e, e), batch.size()); // counted as lost, then the session ends
            throw e;
        } finally {
            queue.written();
        }
    }

    /** Copies the frames of {@code batch} one after another into {@code buffer}; returns their length. */
    private static int coalesce(List<Frame> batch, byte[] buffer) {
        int n = 0;
        for (Frame f : batch) {
            for (byte[] part : f.parts()) {
                System.arraycopy(part, 0, buffer, n, part.length);
                n += part.length;
            }
        }
        return n;
    }

    /**
     * A write failed: the frames in flight are lost and counted. Unless the transport refuses sends
     * (from STOPPING on: the close has given up on what is unwritten and wakes the write itself, so
     * a failure then is not kept as the client's, even one the client caused), the client has gone: the first failure is kept, and what waits
     * in the queue is dropped, counted, and the writer thread ends.
     */
    private void failed(Exception e, int frames) {
        failedFrames.addAndGet(frames);
        if (!lifecycle.acceptsSends()) {
            return;
        }
        synchronized (this) {
            if (failure == null) {
                failure = new IOException("writing to the client failed: " + e.getMessage(), e);
                LOG.log(Level.DEBUG, "{0}", failure.getMessage());
            }
        }
        failedFrames.addAndGet(queue.close());
    }

    /** The first write failure the client caused, or null while there is none. */
    public IOException failure() {
        return failure;
    }

    /** How many frames were lost in failed writes. */
    public int failedFrames() {
        return failedFrames.get();
    }
}
