package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.TransportLog.LOG;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The transport's input side, on the dispatcher thread: frames what it reads from the wire
 * itself or what the reader thread handed over ({@link ReadHandoff}), decodes each line, keeps the
 * set of requests owed an answer (a request the client cancelled is not owed), answers lines that
 * do not decode, and calls the listener, in order. A request on which the listener throws
 * anything, an {@link Error} included, still unanswered, is answered -32603, and serving goes on.
 */
public final class LineDispatcher {

    /** Sends an answer for a line that did not decode. */
    @FunctionalInterface
    public interface Answerer {
        /** Sends {@code message}. */
        void send(JsonRpcMessage message) throws IOException;
    }

    private final JsonRpcCodec codec;
    private final LineFramer framer;
    private final int maxMessageBytes;
    private final PendingRequests pending;
    private final Progress progress;
    private final TransportListener listener;
    private final Answerer answerer;
    private final boolean answerDecodeErrors;
    private final Lifecycle lifecycle;
    private final InputStream input;
    /** Lines that called for an answer but came in after the transport began to stop. */
    private volatile int abandoned; // written by the dispatcher only
    /** Whether any line has been dispatched: the client has spoken. */
    private volatile boolean dispatchedAny; // written by the dispatcher only

    /**
     * @param answerer           sends the transport's own answers
     * @param answerDecodeErrors whether lines that do not decode are answered here, or left to the listener
     * @param lifecycle          the transport's: once it is closing, nothing more is dispatched
     * @param framer             the line buffer, which {@link AnswerBatching} looks into too
     * @param input              the wire, as the dispatcher reads it ({@link ReadHandoff#dispatcherInput})
     */
    public LineDispatcher(JsonRpcCodec codec, int maxMessageBytes, PendingRequests pending, Progress progress,
                          TransportListener listener, Answerer answerer, boolean answerDecodeErrors,
                          Lifecycle lifecycle, LineFramer framer, InputStream input) {
        this.codec = codec;
        this.framer = framer;
        this.maxMessageBytes = maxMessageBytes;
        this.pending = pending;
        this.progress = progress;
        this.listener = listener;
        this.answerer = answerer;
        this.answerDecodeErrors = answerDecodeErrors;
        this.lifecycle = lifecycle;
        this.input = input;
    }

    /** How many lines called for an answer but came in after the transport began to stop; read after this thread ended. */
    public int abandoned() {
        return abandoned;
    }

    /** Whether any line has been dispatched yet: the client has spoken. */
    public boolean dispatchedAny() {
        return dispatchedAny;
    }

    /**
     * Dispatches every line of the input until it ends; once the transport stops, what the input
     * still yields (what was already taken from the client) is only counted ({@link #abandoned()}).
     *
     * @param batching told when the lines of one read are dispatched, before the next read,
     *                 which may block: answers held back to be coalesced go out then
     * @throws IOException when reading the input fails
     */
    public void run(AnswerBatching batching) throws IOException {
        InputStream wire = input;
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                dispatch(codec.decode(buffer, offset, length));
            }

            @Override
            public void oversized(long length, Optional<RequestId> id) {
                dispatch(DecodeError.invalidRequest("a message of " + length + " bytes exceeds the limit of "
                        + maxMessageBytes + " bytes; it was skipped", id.orElse(null)));
            }
        };
        boolean more;
        do {
            more = framer.readFrom(wire, sink);
            batching.readDispatched();
        } while (more);
    }

    private void dispatch(DecodeResult result) {
        if (lifecycle.isClosing()) {
            // The listener has been or is being told of the close: count what called for an answer.
            boolean request = result instanceof DecodeResult.Decoded d && d.message() instanceof JsonRpcRequest;
            if (request || (result instanceof DecodeError && answerDecodeErrors)) {
                abandoned++;
            }
            return;
        }
        progress.step();
        if (!dispatchedAny) {
            dispatchedAny = true;
        }
        if (result instanceof DecodeResult.Decoded decoded) {
            JsonRpcMessage m = decoded.message();
            if (m instanceof JsonRpcRequest request) {
                pending.received(request.id());
            } else if (m instanceof JsonRpcNotification n && McpProtocol.CANCELLED.equals(n.method())) {
                cancelled(n);
            }
            try {
                listener.onMessage(m);
            } catch (Throwable e) { // an Error too (an assert, a stack overflow): it must not end this thread
                LOG.log(Level.ERROR, "the listener failed on a message; serving goes on", e);
                if (m instanceof JsonRpcRequest request && pending.owes(request.id())) {
                    // Every request gets one answer: the server failed on this one, so say so.
                    answer(JsonRpcError.of(request.id(), ErrorCodes.INTERNAL_ERROR,
                            "the server failed on this request: " + JsonRpcError.quote(String.valueOf(e))));
                }
            }
            return;
        }
        DecodeError error = (DecodeError) result;
        LOG.log(Level.DEBUG, "undecodable line: {0}", error.message());
        if (answerDecodeErrors) {
            answer(error.toResponse());
        }
        try {
            listener.onDecodeError(error);
        } catch (Throwable e) {
            LOG.log(Level.ERROR, "the listener failed on a decode error; serving goes on", e);
        }
    }

    private void answer(JsonRpcError error) {
        try {
            answerer.send(error);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not answer: {0}", e.getMessage());
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
}
