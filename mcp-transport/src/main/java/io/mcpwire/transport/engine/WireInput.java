package io.mcpwire.transport.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * The wire, read by the dispatcher itself while it keeps up, and by a thread of its own
 * ({@code mcpwire-stdio-reader}) once the dispatcher is busy for long: see {@link InboundPipe}. So
 * a request reaches the listener with no hand-off between threads, and the end of input is still
 * seen, within {@code 2 * InboundPipe.LOOK_NANOS}, whatever the dispatcher and the writer are
 * blocked in; the grace period starts then. The end-of-input rule always runs on the reader thread,
 * whichever thread read the end.
 *
 * <p>Threads: the reader thread and the dispatcher, one at a time on the wire. This class holds
 * no lock of its own (the pipe has one).
 */
public final class WireInput {
    private static final int CHUNK = 64 * 1024;

    private final InputStream wire;
    private final InboundPipe pipe;
    private final Runnable onEnd;
    private final Consumer<IOException> onFailure;
    private final Thread reader;

    /**
     * A reader of {@code wire} that hands over through a pipe of {@code pipeBytes} and, on its own
     * thread, reports the end of the wire to {@code onEnd} (after the pipe was ended) or a failed
     * read to {@code onFailure}. Nothing is read before {@link #start()}.
     */
    public WireInput(InputStream wire, int pipeBytes, Runnable onEnd, Consumer<IOException> onFailure) {
        this.wire = wire;
        this.pipe = new InboundPipe(pipeBytes);
        this.onEnd = onEnd;
        this.onFailure = onFailure;
        this.reader = Daemons.thread(this::readLoop, "mcpwire-stdio-reader");
    }

    /** Starts reading the wire. */
    public void start() {
        reader.start();
    }

    /** The dispatcher's stream: what the wire gave, ending where it ended; it fails once closed. */
    public InputStream input() {
        return pipe.dispatcherInput(wire);
    }

    /** Whether bytes wait that the dispatcher has not read. */
    public boolean hasMore() {
        return pipe.hasMore();
    }

    /** Whether the input was ended early while the dispatcher waits on the wire, with all it took dispatched. */
    public boolean endedWhileDispatcherReads() {
        return pipe.endedWhileDispatcherReads();
    }

    /** The thread that reads the wire. */
    public Thread readerThread() {
        return reader;
    }

    /**
     * Ends the input here, as if the wire had ended: the dispatcher reads what was already taken,
     * then end of input; what the wire gives from now on is not taken.
     */
    public void end() {
        pipe.end();
    }

    /**
     * Stops taking more: the reader leaves at its next chunk, or once the wire is woken; the
     * dispatcher's next read fails.
     */
    public void close() {
        pipe.close();
    }

    private void readLoop() {
        byte[] buffer = new byte[CHUNK];
        InboundPipe.ReaderTurn turn;
        try {
            while ((turn = pipe.awaitReaderTurn()) == InboundPipe.ReaderTurn.READ) {
                int n = wire.read(buffer, 0, buffer.length);
                if (n < 0) {
                    pipe.wireEnded();
                } else if (!pipe.put(buffer, 0, n)) {
                    return; // closing, or ended early
                }
            }
        } catch (IOException | RuntimeException e) {
            onFailure.accept(e instanceof IOException io ? io : new IOException(e));
            return;
        }
        if (turn == InboundPipe.ReaderTurn.WIRE_ENDED) {
            onEnd.run();
        }
    }
}
