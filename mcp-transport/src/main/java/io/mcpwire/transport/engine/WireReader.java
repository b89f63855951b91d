package io.mcpwire.transport.engine;

import java.io.IOException;
import java.io.InputStream;

/**
 * The reader thread ({@code mcpwire-stdio-reader}): it reads the wire into the {@link ReadHandoff}
 * only while the dispatcher is away with bytes it took, so that a request reaches the listener
 * with no hand-off between threads while the dispatcher keeps up, and the end of input is still
 * seen, within {@code 2 * ReadHandoff.CHECK_NANOS}, whatever the dispatcher and the writer are
 * blocked in. At the wire's end, whichever thread read it, the end-of-input rule runs here.
 *
 * <p>Threads: its own; it holds no lock of its own (the hand-off has one).
 */
public final class WireReader implements Runnable {
    private static final int CHUNK = 64 * 1024;
    private static final byte[] NOTHING_READ = new byte[0];

    /** What the reader thread reports, on itself. */
    public interface Events {
        /** The wire ended (the hand-off was ended first): the end-of-input rule runs now. */
        void wireEnded();

        /** A read of the wire failed. */
        void readFailed(IOException e);
    }

    private final InputStream wire;
    private final ReadHandoff handoff;
    private final Events events;
    private final Thread thread;

    /**
     * A reader of {@code wire} into {@code handoff} that, on its own thread, reports the end of the
     * wire or a failed read to {@code events}. Nothing is read before {@link #start()}.
     */
    public WireReader(InputStream wire, ReadHandoff handoff, Events events) {
        this.wire = wire;
        this.handoff = handoff;
        this.events = events;
        this.thread = Daemons.thread(this, "mcpwire-stdio-reader");
    }

    /** Starts the thread. */
    public void start() {
        thread.start();
    }

    /** The reader thread. */
    public Thread thread() {
        return thread;
    }

    /** The reader thread's loop; only that thread runs it. */
    @Override
    public void run() {
        byte[] buffer = NOTHING_READ; // made at the first read: most sessions never need this thread to read
        ReadHandoff.ReaderMove move;
        try {
            while ((move = handoff.awaitReaderMove()) == ReadHandoff.ReaderMove.READ) {
                if (buffer == NOTHING_READ) {
                    buffer = new byte[CHUNK];
                }
                int n = wire.read(buffer, 0, buffer.length);
                if (n < 0) {
                    handoff.wireEnded();
                } else if (!handoff.put(buffer, 0, n)) {
                    return; // closing, or ended early
                }
            }
        } catch (Throwable e) { // an Error too: the session must end, not wait for bytes this thread owed the dispatcher
            events.readFailed(e instanceof IOException io ? io : new IOException(e));
            return;
        }
        if (move == ReadHandoff.ReaderMove.WIRE_ENDED) {
            events.wireEnded();
        }
    }
}
