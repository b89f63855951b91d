package io.mcpwire.transport.engine;

import static io.mcpwire.transport.engine.TransportLog.LOG;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.mcpwire.stdio.Wire;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One transport's connection to its client: built whole with the transport, every part final,
 * started once with the listener, and ended exactly once, by end of input, the host's death, a
 * failed read or write, {@code closeWhenAnswered()} or {@code close()}. Its one {@link Lifecycle}
 * says where it stands.
 *
 * <h2>Threads</h2>
 *
 * <p>Every thread is a daemon made by {@link Daemons}, so none keeps a JVM alive after its
 * connection ended; a reader blocked on streams that cannot be woken (the caller's own, or the
 * standard ones served in place) is left behind on purpose.
 *
 * <table>
 * <caption>Threads</caption>
 * <tr><th>thread</th><th>owns</th><th>blocks in</th></tr>
 * <tr><td>{@code mcpwire-stdio-reader}</td><td>reading the wire into the read hand-off while the
 *     dispatcher is away for long ({@link WireReader}); at the wire's end, whoever read it, the
 *     end-of-input rule; a failed read</td><td>a check every 20 ms for a stuck dispatcher, none
 *     while the wire has been quiet for a second; a wire read; a full hand-off; the grace wait</td></tr>
 * <tr><td>{@code mcpwire-stdio-dispatcher}</td><td>reading the wire itself while it keeps up, else
 *     the hand-off; framing, decoding, {@code onMessage}, answering undecodable lines</td><td>a wire
 *     read; a hand-off read; a send on a full queue</td></tr>
 * <tr><td>{@code mcpwire-stdio-writer}</td><td>writing queued frames ({@link FrameWriter})</td>
 *     <td>{@code take()}, with a linger of at most 1 ms for answers held back; before the first
 *     write, the host watch's reading of the ancestry; a write</td></tr>
 * <tr><td>{@code mcpwire-stdio-host-watch}</td><td>watching the host; on its exit, the end-of-input
 *     rule, and so perhaps the close and {@code onClosed}</td><td>the poll; the grace wait</td></tr>
 * <tr><td>any caller of {@code send}</td><td>encoding its message; writing it itself when the queue
 *     is empty and idle</td><td>a full queue; before the first write, the host watch's reading of
 *     the ancestry; its own direct write</td></tr>
 * <tr><td>the close's winner</td><td>the queue closed, the wire woken, the threads joined, the wire
 *     released, {@code onClosed} once</td><td>the grace waits; joins; the claim's release</td></tr>
 * </table>
 *
 * <h2>Locks, outermost first</h2>
 *
 * <table>
 * <caption>Locks</caption>
 * <tr><th>lock</th><th>taken by</th><th>guards</th><th>runs under it</th></tr>
 * <tr><td>the claim's locks (see the package {@code io.mcpwire.stdio})</td><td>the close's winner,
 *     releasing the wire; a reader or writer on a claimed descriptor</td><td>the claim's moves</td>
 *     <td>the claim's own, never the connection's</td></tr>
 * <tr><td>{@code OutboundQueue.lock}</td><td>senders, the writer, the close</td><td>the queued frames
 *     and their bytes, whether they are due, who writes; {@code notEmpty}, {@code notFull}</td><td>nothing foreign</td></tr>
 * <tr><td>{@code ReadHandoff.lock}</td><td>the reader, the dispatcher</td><td>the bytes read and not
 *     yet dispatched; who owns the wire's read</td><td>nothing foreign: let go for a read of the wire</td></tr>
 * <tr><td>{@link PendingRequests}' monitor</td><td>the dispatcher, senders, the close</td><td>the
 *     requests received and not yet answered</td><td>nothing foreign</td></tr>
 * <tr><td>{@link FrameWriter}'s monitor</td><td>the writer, a direct writer</td><td>the first write
 *     failure</td><td>nothing foreign</td></tr>
 * <tr><td>(none)</td><td>anyone</td><td>{@link Lifecycle}: compare-and-set; {@link Progress}: a
 *     clock read every 10 ms</td><td></td></tr>
 * </table>
 *
 * <p>No callback runs under a lock: the listener is called, and the end-of-input rule run, with no
 * lock of the connection's held, and the connection's locks are each taken alone.
 */
public final class Connection {
    private static final int HANDOFF_BYTES = 4 * 1024 * 1024;
    private static final long JOIN_MILLIS = 2_000;

    private final TransportOptions options;
    private final Wire wire;
    private final Lifecycle lifecycle = new Lifecycle();
    private final Progress progress = new Progress();
    private final PendingRequests pending = new PendingRequests();
    private final OutboundQueue queue;
    private final FrameWriter frames;
    private final ReadHandoff handoff = new ReadHandoff(HANDOFF_BYTES);
    private final WireReader reader;
    private final LineFramer framer;
    private final AnswerBatching batching;
    private final Thread dispatcher;
    private final Thread writer;
    private final HostWatcher watch;
    /** What the reader, the host watch and the dispatcher call back. */
    private final Callbacks callbacks = new Callbacks();
    /** Counted down once the close has written what it could and put the wire back, before the listener hears of it. */
    private final CountDownLatch drained = new CountDownLatch(1);
    /** The JVM shutdown hook that drains the connection on SIGTERM, once {@link #drainAtShutdown} installed it. */
    private volatile Optional<Thread> shutdownHook = Optional.empty();
    /** Counted down when the dispatcher has dispatched its last line. */
    private final CountDownLatch dispatched = new CountDownLatch(1);
    /** Whether the listener has been told that no more requests will come. */
    private final AtomicBoolean inputEndTold = new AtomicBoolean();
    /** The listener, given at {@link #start}; written before the move to SERVING, read only after it. */
    private volatile TransportListener listener;
    /** The dispatcher's lines, made at {@link #start} with the listener; read by the close, live. */
    private volatile LineDispatcher lines;

    /** A connection over {@code wire}, every part built and no thread started: see {@link #start}. */
    public Connection(TransportOptions options, Wire wire) {
        this.options = options;
        this.wire = wire;
        this.queue = new OutboundQueue(options.outboundQueueBytes());
        this.watch = HostWatcher.of(options.hostWatch(), options.processExits(), callbacks);
        this.frames = new FrameWriter(wire.output(), wire.outputBuffered(), options.codec(), options.maxMessageBytes(),
                queue, pending, progress, lifecycle, watch);
        this.reader = new WireReader(wire.input(), handoff, callbacks);
        this.framer = new LineFramer(options.maxMessageBytes(), options.codec().limits());
        this.writer = Daemons.thread(new Loop(Loop.Side.WRITER), "mcpwire-stdio-writer");
        this.dispatcher = Daemons.thread(new Loop(Loop.Side.DISPATCHER), "mcpwire-stdio-dispatcher");
        this.batching = new AnswerBatching(framer, handoff, queue, dispatcher);
    }

    /** One of the connection's two loops, as its thread runs it. */
    private final class Loop implements Runnable {
        /** Which loop. */
        enum Side { WRITER, DISPATCHER }

        private final Side side;

        Loop(Side side) {
            this.side = side;
        }

        @Override
        public void run() {
            try {
                if (side == Side.WRITER) {
                    writeLoop();
                } else {
                    dispatchLoop();
                }
            } catch (Throwable e) {
                // What no part of the loop expected (an Error): the session ends, said, rather than
                // going on without the thread that reads or writes it.
                LOG.log(Level.ERROR, "the " + Thread.currentThread().getName() + " thread failed; the session ends", e);
                end(new Ending(TransportClosed.Reason.FAILED, new IOException("the " + Thread.currentThread().getName()
                        + " thread failed: " + e, e), Grace.UNSPENT, Owed.COUNTED));
            }
        }
    }

    /**
     * What the connection's parts call back: a named class, not lambdas (each lambda's first call
     * generates a class, at every start of every server), and private, so that the callbacks are
     * not methods of the connection's own.
     */
    private final class Callbacks implements WireReader.Events, HostWatcher.Session, LineDispatcher.Answerer {
        /** Whether the client has sent anything yet: a line reached the dispatcher. On the host watch's thread. */
        @Override
        public boolean clientSpoke() {
            LineDispatcher l = lines;
            return l != null && l.dispatchedAny();
        }

        /** The host exited, stdin perhaps still open: on the watching thread. */
        @Override
        public void hostExited() {
            hostEnded();
        }

        /** The wire ended: on the reader thread. */
        @Override
        public void wireEnded() {
            endWhenAnswered(TransportClosed.Reason.END_OF_INPUT);
        }

        /** A read of the wire failed on the reader thread. */
        @Override
        public void readFailed(IOException e) {
            failedReading(e);
        }

        /** The dispatcher's answer to a line that did not decode. */
        @Override
        public void send(JsonRpcMessage message) throws IOException {
            Connection.this.send(message);
        }
    }

    /**
     * Starts the threads, the host watch, the writer, the reader, then the dispatcher, with
     * {@code listener} told of every message.
     *
     * @throws IllegalStateException when started before, or closed
     */
    public synchronized void start(TransportListener listener) {
        if (lifecycle.phase() == Lifecycle.Phase.BUILT) {
            this.listener = listener; // a start that loses to a concurrent close has no listener to call
            this.lines = new LineDispatcher(options.codec(), options.maxMessageBytes(), pending, progress, listener,
                    callbacks, options.answerDecodeErrors(), lifecycle, framer, handoff.dispatcherInput(wire.input()));
        }
        if (!lifecycle.start()) {
            throw new IllegalStateException(lifecycle.phase() == Lifecycle.Phase.CLOSED
                    ? "the transport is closed" : "the transport is already started");
        }
        watch.start(); // first: the first write waits for the ancestry it reads
        writer.start();
        reader.start();
        dispatcher.start();
    }

    /**
     * Drains the connection when the JVM shuts down while it serves (SIGTERM, {@code System.exit}
     * elsewhere): as at end of input, the answers owed are written and the wire put back, the
     * shutdown waiting for it (one grace period without progress, twice, at most) but not for the
     * listener, which may itself call {@code System.exit} and would wait for the shutdown forever.
     * The hook goes when the connection closes otherwise.
     */
    public void drainAtShutdown() {
        Thread hook = new Thread(new ShutdownDrain(), "mcpwire-stdio-shutdown");
        shutdownHook = Optional.of(hook);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            shutdownHook = Optional.empty(); // the JVM is shutting down already
        }
        if (lifecycle.phase() == Lifecycle.Phase.CLOSED) {
            removeShutdownHook();
        }
    }

    /** The shutdown hook's work: the drain on a thread of its own, waited for within its bound. */
    private final class ShutdownDrain implements Runnable {
        @Override
        public void run() {
            Daemons.thread(Connection.this::closeWhenAnswered, "mcpwire-stdio-terminated").start();
            try {
                drained.await(2 * options.graceNanos() + TimeUnit.MILLISECONDS.toNanos(3 * JOIN_MILLIS), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void removeShutdownHook() {
        shutdownHook.filter(hook -> hook != Thread.currentThread()).ifPresent(hook -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs, finds the connection closed, and returns
            }
        });
    }

    /** Sends {@code message}: see {@code StdioTransport.send}. Also how the dispatcher answers a line that did not decode. */
    public void send(JsonRpcMessage message) throws IOException {
        requireSending();
        frames.send(message, batching.holdBack());
    }

    /** Sends a message the caller encoded, answering {@code answers} when present: see {@code StdioTransport.sendEncoded}. */
    public void sendEncoded(String json, Optional<RequestId> answers) throws IOException {
        requireSending();
        frames.sendEncoded(json, answers, batching.holdBack());
    }

    private void requireSending() throws IOException {
        if (!lifecycle.acceptsSends()) {
            throw new IOException(lifecycle.phase() == Lifecycle.Phase.BUILT
                    ? "the transport is not started; the message was not sent"
                    : "the transport is closed; the message was not sent");
        }
    }

    /**
     * Ends the connection as end of input does: nothing more is read, every request received is
     * answered while anything moves (one grace period without progress at most), then the close.
     * Runs on the caller's thread, which it blocks until the connection has closed; asked on the
     * dispatcher thread (a listener's {@code onMessage}), it runs on a thread of its own and
     * returns at once, since the answers it waits for may be the caller's own. Before the start,
     * the same as {@link #close()}.
     */
    public void closeWhenAnswered() {
        if (lifecycle.phase() != Lifecycle.Phase.SERVING) {
            close();
            return;
        }
        handoff.end();
        if (Thread.currentThread() == dispatcher) {
            Daemons.thread(() -> endWhenAnswered(TransportClosed.Reason.CLOSED), "mcpwire-stdio-close").start();
            return;
        }
        endWhenAnswered(TransportClosed.Reason.CLOSED);
    }

    /**
     * Ends the connection without waiting for answers still owed; waits for the close unless it
     * runs on this thread. Before the start, only puts the wire back (or wakes it, for a claim
     * its owner keeps).
     */
    public void close() {
        if (lifecycle.closeUnstarted()) {
            if (options.releaseOnClose()) {
                wire.release();
            } else {
                wire.wake();
            }
            return;
        }
        end(new Ending(TransportClosed.Reason.CLOSED, null, Grace.UNSPENT, Owed.FORGIVEN));
    }

    // ------------------------------------------------------------------ the threads

    private void writeLoop() {
        frames.run();
        IOException failure = frames.failure();
        if (failure != null) {
            end(new Ending(TransportClosed.Reason.FAILED, failure, Grace.UNSPENT, Owed.COUNTED));
        }
    }

    private void dispatchLoop() {
        Optional<String> absent = wire.outputAbsence();
        if (absent.isPresent()) {
            dispatched.countDown();
            end(new Ending(TransportClosed.Reason.FAILED, new IOException("stdout cannot carry answers: "
                    + absent.get() + "; no client can be reached"), Grace.UNSPENT, Owed.COUNTED));
            return;
        }
        try {
            lines.run(batching);
        } catch (IOException | RuntimeException e) {
            failedReading(e); // nothing when the hand-off failed because the connection is closing
        } finally {
            dispatched.countDown();
        }
    }

    private void failedReading(Exception e) {
        if (!lifecycle.isClosing()) {
            end(new Ending(TransportClosed.Reason.FAILED, new IOException("reading from the client failed: " + e.getMessage(), e),
                    Grace.UNSPENT, Owed.COUNTED));
        }
    }

    // ------------------------------------------------------------------ the end-of-input rule

    /** The host exited, stdin perhaps still open: the end-of-input rule, unless the session is closing. */
    private void hostEnded() {
        if (lifecycle.isClosing()) {
            return;
        }
        LOG.log(Level.INFO, "the process that started this server exited; ending the session as at end of input");
        handoff.end(); // what was read is dispatched, then the dispatcher sees the end
        endWhenAnswered(TransportClosed.Reason.HOST_EXITED);
    }

    /**
     * The end-of-input rule: every line already received is dispatched, the listener told that no
     * more will come, and every request answered while anything moves; after a whole grace period
     * without progress, what is owed is dropped and counted. One grace period in all: when it ran
     * out here, the close does not wait for the queue again. A {@code close()} meanwhile ends the wait.
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
        end(new Ending(reason, null, answered ? Grace.UNSPENT : Grace.SPENT, Owed.COUNTED));
    }

    /** Tells the listener, once, that no more requests will come. */
    private void tellInputEnded() {
        if (!inputEndTold.compareAndSet(false, true)) {
            return;
        }
        try {
            listener.onInputEnded();
        } catch (Throwable e) {
            LOG.log(Level.ERROR, "the listener failed on the end of input", e);
        }
    }

    /**
     * Whether every line received has been dispatched: the dispatcher is done, or it waits on a
     * wire whose input was ended early (the host died with stdin still open), where nothing more counts.
     */
    private boolean allDispatched() {
        return dispatched.getCount() == 0 || handoff.endedWhileDispatcherReads();
    }

    // ------------------------------------------------------------------ the close

    /** Whether a whole grace period has just passed without progress: the grace runs once, so the queue is not waited for again. */
    private enum Grace { UNSPENT, SPENT }

    /** Whether answers still owed at the end are losses: not after a plain {@code close()}, which does not wait for them. */
    private enum Owed { COUNTED, FORGIVEN }

    /** Why the connection ends: the kind of ending, its cause, whether the grace was spent, and whether what is owed counts as lost. */
    private record Ending(TransportClosed.Reason reason, Throwable cause, Grace grace, Owed owed) {
    }

    /**
     * Runs the close, or waits for the one that runs it. Later callers wait for it, except the
     * connection's own threads, which the winner joins, and a close asked from inside this one,
     * which returns at once rather than wait for itself.
     */
    private void end(Ending ending) {
        if (!lifecycle.beginClose()) {
            if (!isOwnThread() && !lifecycle.closingOnThisThread()) {
                lifecycle.awaitClosed();
            }
            return;
        }
        try {
            writeWhatIsQueued(ending);
            lifecycle.stopSends();
            int lost = stopThreads(ending);
            TransportClosed closed = outcome(ending, lost);
            if (options.releaseOnClose()) {
                wire.release(); // else the claim's owner puts it back, later
            }
            drained.countDown();
            tellClosed(closed);
        } finally {
            drained.countDown();
            lifecycle.markClosed();
            removeShutdownHook();
        }
    }

    /** Writes what is queued while the client reads it, unless the grace was spent or the writer itself failed. */
    private void writeWhatIsQueued(Ending ending) {
        boolean writerFailed = ending.reason() == TransportClosed.Reason.FAILED && Thread.currentThread() == writer;
        if (ending.grace() == Grace.UNSPENT && !writerFailed) {
            queue.markDue(); // nothing more is coming to batch with
            progress.await(queue::isIdle, options.graceNanos());
        }
    }

    /** Stops the watch and the threads, a writer still blocked on a client that does not read losing its frame; returns what was lost. */
    private int stopThreads(Ending ending) {
        TransportClosed.Reason reason = ending.reason();
        watch.stop();
        int unwritten = queue.close();
        boolean readersLeave = wire.wake();
        handoff.close();
        if (readersLeave) {
            Daemons.join(reader.thread(), JOIN_MILLIS); // otherwise a daemon blocked on a stream no one can wake
            Daemons.join(dispatcher, JOIN_MILLIS);
        }
        Daemons.join(writer, JOIN_MILLIS);
        int unanswered = ending.owed() == Owed.FORGIVEN ? 0 : pending.count() + lines.abandoned();
        int lost = unwritten + frames.failedFrames() + unanswered;
        if (lost > 0) {
            LOG.log(Level.WARNING, "the transport closed ({0}) with {1} message(s) lost ({2} unwritten, "
                    + "{3} cut off or failed in writing, {4} unanswered)", reason, lost, unwritten, frames.failedFrames(), unanswered);
        }
        return lost;
    }

    /** What the listener is told: an end of input whose answers could not be delivered is a failure. */
    private TransportClosed outcome(Ending ending, int lost) {
        if (frames.failure() != null && ending.reason() == TransportClosed.Reason.END_OF_INPUT) {
            return new TransportClosed(TransportClosed.Reason.FAILED, frames.failure(), lost);
        }
        return new TransportClosed(ending.reason(), ending.cause(), lost);
    }

    private void tellClosed(TransportClosed closed) {
        try {
            listener.onClosed(closed);
        } catch (Throwable e) {
            LOG.log(Level.ERROR, "the listener failed on close", e);
        }
    }

    /** Whether the calling thread is one of the connection's own, which the winner joins. */
    private boolean isOwnThread() {
        Thread t = Thread.currentThread();
        return t == reader.thread() || t == dispatcher || t == writer;
    }
}
