package io.mcpwire.transport.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A session's lifecycle, one {@link Phase} at a time, from SERVING (a session exists only once
 * started; a transport closed before it started has none). The rules, in one place:
 *
 * <table>
 * <caption>Moves</caption>
 * <tr><th>move</th><th>who makes it</th><th>what it owes</th></tr>
 * <tr><td>SERVING → DRAINING</td><td>the first of: end of input (after the answers owed are
 *     queued, or a grace period without progress), a failed read (the dispatcher or the reader
 *     thread), a failed write (the writer), the host's death (the host-watch thread), {@code close}
 *     (any thread). Exactly one caller wins and runs the close to its end; the rest wait for
 *     CLOSED, except the transport's own threads, which the winner joins, and the winner's own
 *     thread, on which a listener called back from the close may close again: that returns at once</td>
 *     <td>nothing yet: sends are still taken, so that late answers go out</td></tr>
 * <tr><td>DRAINING → STOPPING</td><td>the winner, once the queue is written or a grace period
 *     passed without progress (not waited for when the writer itself failed)</td>
 *     <td>sends refused from here on</td></tr>
 * <tr><td>STOPPING → CLOSED</td><td>the winner</td>
 *     <td>the queue closed and what it held counted; the wire woken; the threads joined (the
 *     readers only when the wire can wake them); the losses counted; the wire released; then
 *     {@code onClosed}, exactly once</td></tr>
 * </table>
 */
public final class Lifecycle {

    /** Where the transport stands. */
    public enum Phase {
        /** Reading, dispatching and writing. */
        SERVING,
        /** Closing: the answers still queued are written; sends are still taken. */
        DRAINING,
        /** Closing: sends are refused; the threads stop and the wire is released. */
        STOPPING,
        /** Closed: the listener has been told (when there was one). */
        CLOSED
    }

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.SERVING);
    private final CountDownLatch closed = new CountDownLatch(1);
    /** The thread that won the close; set once, by it. */
    private volatile Thread closer;

    /** SERVING → DRAINING; true for the one caller that wins the close, whose thread is remembered. */
    public boolean beginClose() {
        if (phase.compareAndSet(Phase.SERVING, Phase.DRAINING)) {
            closer = Thread.currentThread();
            return true;
        }
        return false;
    }

    /** Whether the calling thread is running the close: a close asked of it from a callback must not wait for itself. */
    public boolean closingOnThisThread() {
        return closer == Thread.currentThread();
    }

    /** DRAINING → STOPPING, by the winner. */
    public void stopSends() {
        phase.compareAndSet(Phase.DRAINING, Phase.STOPPING);
    }

    /** → CLOSED, by the winner, last: releases every caller waiting in {@link #awaitClosed()}. */
    public void markClosed() {
        phase.set(Phase.CLOSED);
        closed.countDown();
    }

    /** Whether {@code send} is taken now. */
    public boolean acceptsSends() {
        Phase p = phase.get();
        return p == Phase.SERVING || p == Phase.DRAINING;
    }

    /** Whether a close has begun (or is done): nothing more is dispatched. */
    public boolean isClosing() {
        return phase.get().compareTo(Phase.DRAINING) >= 0;
    }

    /** The phase now. */
    public Phase phase() {
        return phase.get();
    }

    /** Waits until CLOSED; returns early, with the interrupt flag set, when interrupted. */
    public void awaitClosed() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
