package io.mcpwire.stdio;

import static io.mcpwire.stdio.claim.StdioLog.LOG;

import io.mcpwire.stdio.transport.Daemons;
import io.mcpwire.stdio.transport.FrameWriter;
import io.mcpwire.stdio.transport.Lifecycle;
import io.mcpwire.stdio.transport.LineDispatcher;
import io.mcpwire.stdio.transport.OutboundQueue;
import io.mcpwire.stdio.transport.PendingRequests;
import io.mcpwire.stdio.transport.Progress;
import io.mcpwire.stdio.transport.WireInput;
import io.mcpwire.stdio.wire.Wire;
import io.mcpwire.transport.TransportClosed;
import io.mcpwire.transport.TransportListener;
import java.lang.System.Logger.Level;

/**
 * A started transport's close, run once by the caller that wins it (see {@link Lifecycle} for
 * the rules): writes what is queued while the client reads it, stops the threads, counts what was
 * lost, releases the wire, then tells the listener. Later callers wait for it, except the
 * transport's own threads, which the winner joins, and a close asked from inside this one (a
 * listener's {@code onClosed} that closes again), which returns at once rather than wait for itself.
 */
record TransportShutdown(Lifecycle lifecycle, Progress progress, OutboundQueue queue, FrameWriter frames, Wire wire,
                         WireInput input, PendingRequests pending, LineDispatcher lines, TransportListener listener,
                         Thread dispatcher, Thread writer, long graceNanos, Runnable stopWatchingTheHost,
                         boolean releaseOnClose) {
    private static final long JOIN_MILLIS = 2_000;

    /**
     * Runs the close, or waits for the one that runs it.
     *
     * @param graceSpent whether a whole grace period has just passed without progress (at end of
     *                   input), so that the queue is not waited for again: the grace runs once
     */
    void run(TransportClosed.Reason reason, Throwable cause, boolean graceSpent) {
        if (!lifecycle.beginClose()) {
            if (!isTransportThread() && !lifecycle.closingOnThisThread()) {
                lifecycle.awaitClosed();
            }
            return;
        }
        try {
            if (!graceSpent && (reason != TransportClosed.Reason.FAILED || Thread.currentThread() != writer)) {
                progress.await(queue::isIdle, graceNanos);
            }
            lifecycle.stopSends();
            stopWatchingTheHost.run();
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
            if (releaseOnClose) {
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

    /** Whether the calling thread is one of the transport's own, which the winner joins. */
    boolean isTransportThread() {
        Thread t = Thread.currentThread();
        return t == input.readerThread() || t == dispatcher || t == writer;
    }
}
