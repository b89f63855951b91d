package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.StdioLog.LOG;

import io.mcpwire.stdio.Wire;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A started transport: built whole by {@code start()}, every part final, and ended exactly once,
 * by end of input, the host's death, a failed read or write, or {@code close()}.
 *
 * <h2>Threads</h2>
 *
 * <p>Every thread is a daemon made by {@link Daemons}, so none keeps a JVM alive after its session
 * ended; a reader blocked on streams that cannot be woken (the caller's own, or the standard ones
 * served in place) is left behind on purpose.
 *
 * <table>
 * <caption>Threads</caption>
 * <tr><th>thread</th><th>owns</th><th>blocks in</th></tr>
 * <tr><td>{@code mcpwire-stdio-reader}</td><td>reading the wire into the inbound pipe while the
 *     dispatcher is busy for long ({@link InboundPipe}); at the wire's end, whoever read it, the
 *     end-of-input rule; a failed read</td><td>a look every 20 ms for a stuck dispatcher, none
 *     while the wire has been quiet for a second; a wire read; a full pipe; the grace wait</td></tr>
 * <tr><td>{@code mcpwire-stdio-dispatcher}</td><td>reading the wire itself while it keeps up, else
 *     the pipe; framing, decoding, {@code onMessage}, answering undecodable lines</td><td>a wire
 *     read; a pipe read; a send on a full queue</td></tr>
 * <tr><td>{@code mcpwire-stdio-writer}</td><td>writing queued frames ({@link FrameWriter})</td>
 *     <td>{@code take()}, with a linger of at most 1 ms for answers still coming; a write</td></tr>
 * <tr><td>{@code mcpwire-stdio-host-watch}</td><td>watching the parent process; on its exit, the
 *     end-of-input rule, and so perhaps the close and {@code onClosed}</td><td>the poll; the grace wait</td></tr>
 * <tr><td>any caller of {@code send}</td><td>encoding its message; writing it itself when the queue
 *     is empty and idle</td><td>a full queue; its own direct write</td></tr>
 * <tr><td>the close's winner</td><td>the queue closed, the wire woken, the threads joined, the wire
 *     released, {@code onClosed} once</td><td>the grace waits; joins; the claim's release</td></tr>
 * </table>
 *
 * <p>The close is run to its end by the one thread that wins {@link Lifecycle}'s move to DRAINING.
 * A close asked again on that thread (a listener's {@code onClosed} that closes) returns at once,
 * and the session's own threads never wait for it.
 *
 * <h2>Locks, outermost first</h2>
 *
 * <table>
 * <caption>Locks</caption>
 * <tr><th>lock</th><th>taken by</th><th>guards</th><th>runs under it</th></tr>
 * <tr><td>the claim's locks (see the package {@code io.mcpwire.stdio})</td><td>the close's winner,
 *     releasing the wire; a reader or writer on a claimed descriptor</td><td>the claim's moves</td>
 *     <td>the claim's own, never the session's</td></tr>
 * <tr><td>{@code OutboundQueue.lock}</td><td>senders, the writer, the close</td><td>the queued frames
 *     and their bytes, whether they are due, who writes; {@code notEmpty}, {@code notFull}</td><td>nothing foreign</td></tr>
 * <tr><td>{@code InboundPipe.lock}</td><td>the reader, the dispatcher</td><td>the bytes read and not
 *     yet dispatched; whose turn it is on the wire</td><td>nothing foreign: let go for a read of the wire</td></tr>
 * <tr><td>{@link PendingRequests}' monitor</td><td>the dispatcher, senders, the close</td><td>the
 *     requests received and not yet answered</td><td>nothing foreign</td></tr>
 * <tr><td>{@link FrameWriter}'s monitor</td><td>the writer, a direct writer</td><td>the first write
 *     failure</td><td>nothing foreign</td></tr>
 * <tr><td>(none)</td><td>anyone</td><td>{@link Lifecycle}: compare-and-set; {@link Progress}: a
 *     clock read every 10 ms</td><td></td></tr>
 * </table>
 *
 * <p>No callback runs under a lock: the listener is called, and the end-of-input rule run, with no
 * lock of the session's held, and the session's locks are each taken alone.
 */
public final class Session {
    private static final int INBOUND_BYTES = 4 * 1024 * 1024;
    private static final long JOIN_MILLIS = 2_000;

    private final TransportOptions options;
    private final Wire wire;
    private final TransportListener listener;
    private final Lifecycle lifecycle = new Lifecycle();
    private final Progress progress = new Progress();
    private final PendingRequests pending = new PendingRequests();
    private final OutboundQueue queue;
    private final FrameWriter frames;
    private final WireInput input;
    private final LineDispatcher lines;
    /** Counted down when the dispatcher has dispatched its last line. */
    private final CountDownLatch dispatched = new CountDownLatch(1);
    private final Thread dispatcher;
    private final Thread writer;
    private final HostWatch watch;
    /** Whether the listener has been told that no more requests will come. */
    private final AtomicBoolean inputEndTold = new AtomicBoolean();

    /** A session over {@code wire}, every part built and no thread started: see {@link #start()}. */
    public Session(TransportOptions options, Wire wire, TransportListener listener) {
        this.options = options;
        this.wire = wire;
        this.listener = listener;
        this.queue = new OutboundQueue(options.outboundQueueBytes());
        this.frames = new FrameWriter(wire.output(), wire.outputBuffered(), options.codec(), options.maxMessageBytes(),
                queue, pending, progress);
        this.input = new WireInput(wire.input(), INBOUND_BYTES, this::wireEnded, this::readFailed);
        this.lines = new LineDispatcher(options.codec(), options.maxMessageBytes(), pending, progress, listener, this::send,
                options.answerDecodeErrors(), lifecycle::isClosing, input);
        this.writer = Daemons.thread(this::writeLoop, "mcpwire-stdio-writer");
        this.dispatcher = Daemons.thread(this::dispatchLoop, "mcpwire-stdio-dispatcher");
        this.watch = !options.hostWatch() ? HostWatch.NONE
                : options.hostExit().map(exit -> HostWatch.of(exit, this::hostExited))
                        .orElseGet(() -> HostWatch.parent(this::hostExited));
    }

    /** Starts the threads: the writer, the reader, the dispatcher, then the host watch. */
    public void start() {
        writer.start();
        input.start();
        dispatcher.start();
        watch.start();
    }

    /** Sends {@code message}: see {@code StdioTransport.send}. */
    public void send(JsonRpcMessage message) throws IOException {
        requireSending();
        frames.send(message, moreComing());
    }

    /** Sends a message the caller encoded, answering {@code answers} when present: see {@code StdioTransport.sendEncoded}. */
    public void sendEncoded(String json, Optional<RequestId> answers) throws IOException {
        requireSending();
        frames.sendEncoded(json, answers, moreComing());
    }

    private void requireSending() throws IOException {
        if (!lifecycle.acceptsSends()) {
            throw new IOException("the transport is closed; the message was not sent");
        }
    }

    /**
     * The dispatcher answering while more requests wait queues, so that answers are coalesced;
     * what it queued is flushed once the lines of each read are dispatched.
     */
    private boolean moreComing() {
        return Thread.currentThread() == dispatcher && lines.moreWaiting();
    }

    /**
     * Ends the session as end of input does: nothing more is read, every request received is
     * answered while anything moves (one grace period without progress at most), then the close.
     * Runs on the caller's thread, which it blocks until the session has closed.
     */
    public void closeWhenAnswered() {
        if (lifecycle.isClosing()) {
            end(TransportClosed.Reason.CLOSED, null, false); // waits for the close under way
            return;
        }
        input.end();
        endWhenAnswered(TransportClosed.Reason.CLOSED);
    }

    /** Ends the session without waiting for answers still owed; waits for the close unless it runs on this thread. */
    public void close() {
        end(TransportClosed.Reason.CLOSED, null, false);
    }

    /** The largest the dispatcher's line buffer has grown, in bytes. */
    public int peakReadBufferBytes() {
        return lines.peakBufferBytes();
    }

    // ------------------------------------------------------------------ the threads

    private void writeLoop() {
        frames.run();
        IOException failure = frames.failure();
        if (failure != null) {
            end(TransportClosed.Reason.FAILED, failure, false);
        }
    }

    private void dispatchLoop() {
        Optional<String> absent = wire.outputAbsence();
        if (absent.isPresent()) {
            dispatched.countDown();
            end(TransportClosed.Reason.FAILED, new IOException("stdout cannot carry answers: "
                    + absent.get() + "; no client can be reached"), false);
            return;
        }
        try {
            lines.run(frames::flush);
        } catch (IOException | RuntimeException e) {
            readFailed(e); // nothing when the pipe failed because the session is closing
        } finally {
            dispatched.countDown();
        }
    }

    private void readFailed(Exception e) {
        if (!lifecycle.isClosing()) {
            end(TransportClosed.Reason.FAILED, new IOException("reading from the client failed: " + e.getMessage(), e), false);
        }
    }

    // ------------------------------------------------------------------ the end-of-input rule

    /** The wire ended: on the reader thread. */
    private void wireEnded() {
        endWhenAnswered(TransportClosed.Reason.END_OF_INPUT);
    }

    /** The host exited, stdin perhaps still open: on the watching thread. */
    private void hostExited() {
        if (lifecycle.isClosing()) {
            return;
        }
        LOG.log(Level.INFO, "the process that started this server exited; ending the session as at end of input");
        input.end(); // what was read is dispatched, then the dispatcher sees the end
        endWhenAnswered(TransportClosed.Reason.HOST_EXITED);
    }

    /**
     * The end-of-input rule: every line already received is dispatched and every request answered
     * while anything moves; after a whole grace period without progress, what is owed is dropped
     * and counted. One grace period in all: when it ran out here, the close does not wait for the
     * queue again. A {@code close()} meanwhile ends the wait.
     */
    private void endWhenAnswered(TransportClosed.Reason reason) {
        boolean answered = progress.await(() -> {
            if (lifecycle.isClosing()) {
                return true;
            }
            if (!allDispatched()) {
                return false;
            }
            tellInputEnded(); // every request received has reached the listener
            return pending.count() == 0;
        }, options.graceNanos());
        if (!answered) {
            LOG.log(Level.WARNING, "end of input: {0} request(s) still unanswered after {1} ms without progress",
                    pending.count(), TimeUnit.NANOSECONDS.toMillis(options.graceNanos()));
        }
        end(reason, null, !answered);
    }

    /** Tells the listener, once, that no more requests will come. */
    private void tellInputEnded() {
        if (!inputEndTold.compareAndSet(false, true)) {
            return;
        }
        try {
            listener.onInputEnded();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "the listener failed on the end of input", e);
        }
    }

    /**
     * Whether every line received has been dispatched: the dispatcher is done, or it waits on a
     * wire whose input was ended early (the host died with stdin still open), where nothing more counts.
     */
    private boolean allDispatched() {
        return dispatched.getCount() == 0 || input.endedWhileDispatcherReads();
    }

    // ------------------------------------------------------------------ the close

    /**
     * Runs the close, or waits for the one that runs it: writes what is queued while the client
     * reads it, stops the threads, counts what was lost, releases the wire, then tells the
     * listener. Later callers wait for it, except the session's own threads, which the winner
     * joins, and a close asked from inside this one, which returns at once rather than wait for itself.
     *
     * @param graceSpent whether a whole grace period has just passed without progress (at end of
     *                   input), so that the queue is not waited for again: the grace runs once
     */
    private void end(TransportClosed.Reason reason, Throwable cause, boolean graceSpent) {
        if (!lifecycle.beginClose()) {
            if (!isSessionThread() && !lifecycle.closingOnThisThread()) {
                lifecycle.awaitClosed();
            }
            return;
        }
        try {
            if (!graceSpent && (reason != TransportClosed.Reason.FAILED || Thread.currentThread() != writer)) {
                queue.flush(); // nothing more is coming to coalesce with
                progress.await(queue::isIdle, options.graceNanos());
            }
            lifecycle.stopSends();
            watch.stop();
            int unwritten = queue.close();
            frames.markStopping();
            // A writer still blocked on a client that does not read loses its frame, counted.
            boolean readersLeave = wire.wake();
            input.close();
            if (readersLeave) {
                Daemons.join(input.readerThread(), JOIN_MILLIS); // otherwise a daemon blocked on a stream no one can wake
                Daemons.join(dispatcher, JOIN_MILLIS);
            }
            Daemons.join(writer, JOIN_MILLIS);
            int unanswered = reason == TransportClosed.Reason.CLOSED ? 0 : pending.count() + lines.abandoned();
            int dropped = unwritten + frames.failedFrames() + unanswered;
            if (frames.failure() != null && reason == TransportClosed.Reason.END_OF_INPUT) {
                reason = TransportClosed.Reason.FAILED; // the answers could not be delivered
                cause = frames.failure();
            }
            if (options.releaseOnClose()) {
                wire.release(); // else the claim's owner puts it back, later
            }
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
            lifecycle.markClosed();
        }
    }

    /** Whether the calling thread is one of the session's own, which the winner joins. */
    private boolean isSessionThread() {
        Thread t = Thread.currentThread();
        return t == input.readerThread() || t == dispatcher || t == writer;
    }
}
