package io.mcpwire.transport.engine;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A transport's one lifecycle, from its build to its close: one {@link Phase} at a time, moved
 * only along {@link #MOVES}, each move checked (an illegal one throws
 * {@link IllegalStateException}, naming both phases).
 *
 * <table>
 * <caption>Moves</caption>
 * <tr><th>move</th><th>who makes it</th><th>what it owes</th></tr>
 * <tr><td>BUILT → SERVING</td><td>{@code start}, once</td><td>the threads started</td></tr>
 * <tr><td>BUILT → CLOSED</td><td>{@code close} before {@code start}</td><td>the wire put back (or
 *     only woken, for a claim its owner keeps); no listener to tell</td></tr>
 * <tr><td>SERVING → DRAINING</td><td>the first of: end of input (once the answers owed are
 *     queued, or after a grace period without progress), a failed read, a failed write, the
 *     host's death, {@code close} or {@code closeWhenAnswered} (any thread). Exactly one caller
 *     wins and runs the close to its end; the rest wait for CLOSED, except the transport's own
 *     threads, which the winner joins, and the winner's own thread, on which a listener called back
 *     from the close may close again: that returns at once</td><td>nothing yet: sends are still
 *     taken, so that late answers go out</td></tr>
 * <tr><td>DRAINING → STOPPING</td><td>the winner, once the queue is written or a grace period
 *     passed without progress</td><td>sends refused from here on</td></tr>
 * <tr><td>STOPPING → CLOSED</td><td>the winner</td><td>the threads stopped and joined, the losses
 *     counted, the wire released; then {@code onClosed}, exactly once</td></tr>
 * </table>
 *
 * <p>Threads: any; the phase is one atomic reference, moved by compare-and-set.
 */
public final class Lifecycle {

    /** Where the transport stands. */
    public enum Phase {
        /** Built: the wire is claimed or given; nothing is read yet. */
        BUILT,
        /** Reading, dispatching and writing. */
        SERVING,
        /** Closing: the answers still queued are written; sends are still taken. */
        DRAINING,
        /** Closing: sends are refused; the threads stop and the wire is released. */
        STOPPING,
        /** Closed: the wire is put back and the listener, if there was one, told. */
        CLOSED
    }

    /** Every legal move, from each phase. */
    static final Map<Phase, Set<Phase>> MOVES = Map.of(
            Phase.BUILT, EnumSet.of(Phase.SERVING, Phase.CLOSED),
            Phase.SERVING, EnumSet.of(Phase.DRAINING),
            Phase.DRAINING, EnumSet.of(Phase.STOPPING),
            Phase.STOPPING, EnumSet.of(Phase.CLOSED),
            Phase.CLOSED, EnumSet.noneOf(Phase.class));

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.BUILT);
    private final CountDownLatch closed = new CountDownLatch(1);
    /** The thread that won the close; set once, by it. */
    private volatile Thread closer;

    /** BUILT → SERVING: true for the one caller that starts the transport. */
    public boolean start() {
        return tryMove(Phase.BUILT, Phase.SERVING);
    }

    /** BUILT → CLOSED: true when the transport was closed before it started; releases every waiter. */
    public boolean closeUnstarted() {
        if (tryMove(Phase.BUILT, Phase.CLOSED)) {
            closed.countDown();
            return true;
        }
        return false;
    }

    /** SERVING → DRAINING: true for the one caller that wins the close, whose thread is remembered. */
    public boolean beginClose() {
        if (tryMove(Phase.SERVING, Phase.DRAINING)) {
            closer = Thread.currentThread();
            return true;
        }
        return false;
    }

    /** DRAINING → STOPPING, by the winner. */
    public void stopSends() {
        move(Phase.DRAINING, Phase.STOPPING);
    }

    /**
     * STOPPING → CLOSED, by the winner, last: releases every caller waiting in {@link #awaitClosed()}.
     * A close that failed before it stopped the sends (an {@code Error} thrown while draining)
     * stops them here first, so that the close always ends and nobody waits for ever.
     */
    public void markClosed() {
        try {
            phase.compareAndSet(Phase.DRAINING, Phase.STOPPING);
            move(Phase.STOPPING, Phase.CLOSED);
        } finally {
            closed.countDown();
        }
    }

    /** Whether the calling thread is running the close: a close asked of it from a callback must not wait for itself. */
    public boolean closingOnThisThread() {
        return closer == Thread.currentThread();
    }

    /** Whether {@code send} is taken now. */
    public boolean acceptsSends() {
        Phase p = phase.get();
        return p == Phase.SERVING || p == Phase.DRAINING;
    }

    /** Whether a close has begun after the start (or is done): nothing more is dispatched. */
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

    private boolean tryMove(Phase from, Phase to) {
        legal(from, to);
        return phase.compareAndSet(from, to);
    }

    private void move(Phase from, Phase to) {
        if (!tryMove(from, to)) {
            throw new IllegalStateException("the transport is " + phase.get() + ", not " + from + ", so it cannot move to " + to);
        }
    }

    private static void legal(Phase from, Phase to) {
        if (!MOVES.get(from).contains(to)) {
            throw new IllegalStateException("no move from " + from + " to " + to);
        }
    }
}
