package io.mcpwire.transport.engine;

/**
 * The one place that decides whether an answer waits to be written together with the answers to
 * the requests read with it, and when the wait ends. The dispatcher answering while more requests
 * already wait, read but not yet dispatched (in the line buffer or the read hand-off), holds its
 * answer back: the writer then wakes once for the whole run and writes it in one write. Once the
 * lines of a read are dispatched, before the next read (which may block), what was held back is
 * due. Any other sender writes at once.
 *
 * <p>Threads: {@link #holdBack()} from any sender, true only on the dispatcher;
 * {@link #readDispatched()} on the dispatcher. No lock of its own.
 */
public final class AnswerBatching {
    private final LineFramer framer;
    private final ReadHandoff handoff;
    private final OutboundQueue queue;
    private final Thread dispatcher;

    /**
     * @param framer     the dispatcher's line buffer
     * @param handoff    what the reader thread read ahead
     * @param queue      where held answers wait
     * @param dispatcher the dispatcher thread
     */
    public AnswerBatching(LineFramer framer, ReadHandoff handoff, OutboundQueue queue, Thread dispatcher) {
        this.framer = framer;
        this.handoff = handoff;
        this.queue = queue;
        this.dispatcher = dispatcher;
    }

    /** Whether the answer being sent now waits for the ones after it: the dispatcher sends it, and more requests already wait. */
    public boolean holdBack() {
        return Thread.currentThread() == dispatcher && (framer.moreBuffered() || handoff.hasMore());
    }

    /** The lines of one read are dispatched: what was held back is written now. */
    public void readDispatched() {
        queue.markDue();
    }
}
