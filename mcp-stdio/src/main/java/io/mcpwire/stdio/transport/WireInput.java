package io.mcpwire.stdio.transport;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The dispatcher's view of the wire. While answers flow, the dispatcher reads the wire itself
 * (no hand-off between threads on the hot path). Once a send by the dispatcher would block on a
 * client that does not read, {@link #pump()} hands the reading to a pump thread that copies the
 * wire into an {@link InboundPipe} and so still sees end of input; the dispatcher reads the pipe
 * from then on. Who reads the wire is one {@link Reader} state; its moves, in one place:
 *
 * <table>
 * <caption>Moves</caption>
 * <tr><th>move</th><th>who makes it</th><th>why</th></tr>
 * <tr><td>DIRECT or ENDED → READING → DIRECT or ENDED</td><td>the dispatcher, around each read of
 *     the wire</td><td>no hand-over while it is inside a read, so no byte is read twice or out of
 *     order; a read that ends or fails moves to ENDED, which stays</td></tr>
 * <tr><td>DIRECT → PUMPED</td><td>{@link #pump()} (a sender about to wait for room, or the
 *     writer's stall tick), which starts the pump thread</td><td>a dispatcher blocked on output
 *     would not see end of input; never undone</td></tr>
 * <tr><td>DIRECT, READING or ENDED → STOPPED</td><td>{@link #close()}</td><td>the wire is read no
 *     further; a read in progress ends as it ends</td></tr>
 * </table>
 *
 * <p>A pumped wire stays PUMPED when closed: the dispatcher drains what the pump took, then its
 * next read fails. Threads: the state is guarded by {@code lock}, held only to read or move it;
 * the pump thread starts under it (it takes no lock of this class).
 */
public final class WireInput {
    private static final int CHUNK = 64 * 1024;

    /** Who reads the wire. */
    private enum Reader {
        /** The dispatcher reads the wire itself and is not inside a read: the pump may take over. */
        DIRECT,
        /** The dispatcher is inside a read of the wire: no hand-over now. */
        READING,
        /** The dispatcher saw the wire end or fail: that end is its to report, and nothing is left to pump. */
        ENDED,
        /** The pump thread reads the wire; the dispatcher reads what it took. */
        PUMPED,
        /** Stopped while the dispatcher read the wire: read no further. */
        STOPPED
    }

    private final InputStream wire;
    private final InboundPipe pipe;
    private final InputStream pipeView;
    private final Runnable onEnd;
    private final Consumer<IOException> onFailure;
    private final Object lock = new Object();
    private Reader reader = Reader.DIRECT; // guarded by lock
    private volatile Thread pump;

    /**
     * A view of {@code wire}; the pump, when started, hands over through a pipe of
     * {@code pipeBytes} and, on its own thread, reports the end of the wire to {@code onEnd} (after
     * the pipe was ended) or a failed read to {@code onFailure}.
     */
    public WireInput(InputStream wire, long pipeBytes, Runnable onEnd, Consumer<IOException> onFailure) {
        this.wire = wire;
        this.pipe = new InboundPipe(pipeBytes);
        this.pipeView = pipe.input();
        this.onEnd = onEnd;
        this.onFailure = onFailure;
    }

    /** The dispatcher's stream: single reader. */
    public InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                boolean fromPipe;
                boolean wasEnded = false;
                synchronized (lock) {
                    if (reader == Reader.STOPPED) {
                        return -1; // the wire is read no further (an explicit stream is the caller's)
                    }
                    fromPipe = reader == Reader.PUMPED;
                    if (!fromPipe) {
                        wasEnded = reader == Reader.ENDED;
                        reader = Reader.READING;
                    }
                }
                if (fromPipe) {
                    return pipeView.read(b, off, len); // what the pump took is drained, to be counted
                }
                int n = -1;
                try {
                    n = wire.read(b, off, len);
                    return n;
                } finally {
                    synchronized (lock) {
                        if (reader == Reader.READING) { // unless stopped meanwhile
                            reader = wasEnded || n < 0 ? Reader.ENDED : Reader.DIRECT; // a failed read ends it too
                        }
                    }
                }
            }
        };
    }

    /** Whether bytes wait that the dispatcher has not read (only ever, once pumped). */
    public boolean hasMore() {
        return pipe.hasMore();
    }

    /**
     * Hands the reading to the pump thread, unless the dispatcher is inside a read right now
     * (then it is not stuck on output, and a later call can try again) or has itself seen the
     * wire end (then the end of input is the dispatcher's to report).
     *
     * @return whether the wire is pumped
     */
    public boolean pump() {
        synchronized (lock) {
            if (reader == Reader.DIRECT) {
                reader = Reader.PUMPED;
                pump = Daemons.thread(this::pumpLoop, "mcpwire-stdio-reader");
                pump.start();
            }
            return reader == Reader.PUMPED;
        }
    }

    /** Whether the pump reads the wire (then the end of input is the pump's to report). */
    public boolean pumped() {
        return reader() == Reader.PUMPED;
    }

    private Reader reader() {
        synchronized (lock) {
            return reader;
        }
    }

    /** The pump thread, or null while the dispatcher reads the wire itself. */
    public Thread pumpThread() {
        return pump;
    }

    /**
     * Stops: a wire read directly is read no further; a pumped one stops taking more, and the
     * dispatcher drains what the pump already took, then its next read fails.
     */
    public void close() {
        synchronized (lock) {
            if (reader != Reader.PUMPED) {
                reader = Reader.STOPPED;
            }
            pipe.close();
        }
    }

    private void pumpLoop() {
        byte[] buffer = new byte[CHUNK];
        try {
            int n;
            while ((n = wire.read(buffer, 0, buffer.length)) >= 0) {
                if (n > 0 && !pipe.put(Arrays.copyOf(buffer, n))) {
                    return; // closing
                }
            }
        } catch (IOException | RuntimeException e) {
            onFailure.accept(e instanceof IOException io ? io : new IOException(e));
            return;
        }
        pipe.end();
        onEnd.run();
    }
}
