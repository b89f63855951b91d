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
 * from then on. The switch happens only while the dispatcher is not inside a read, so no byte is
 * read twice or out of order; it is never undone.
 */
public final class WireInput {
    private static final int CHUNK = 64 * 1024;

    private final InputStream wire;
    private final InboundPipe pipe;
    private final InputStream pipeView;
    private final Runnable onEnd;
    private final Consumer<IOException> onFailure;
    private final Object lock = new Object();
    private boolean pumped;
    private boolean reading;
    private boolean ended;
    private boolean closed;
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
                boolean direct;
                synchronized (lock) {
                    if (closed && !pumped) {
                        return -1; // stopped: the wire is read no further (an explicit stream is the caller's)
                    }
                    direct = !pumped;
                    reading = direct;
                }
                if (!direct) {
                    return pipeView.read(b, off, len); // what the pump took is drained, to be counted
                }
                int n = -1;
                try {
                    n = wire.read(b, off, len);
                    return n;
                } finally {
                    synchronized (lock) {
                        reading = false;
                        ended = n < 0; // a failed read ends it too: nothing is left to pump
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
            if (!pumped && !reading && !ended && !closed) {
                pumped = true;
                Thread t = new Thread(this::pumpLoop, "mcpwire-stdio-reader");
                t.setDaemon(true); // a transport thread never keeps the JVM alive
                pump = t;
                t.start();
            }
            return pumped;
        }
    }

    /** Whether the pump reads the wire (then the end of input is the pump's to report). */
    public boolean pumped() {
        synchronized (lock) {
            return pumped;
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
            closed = true;
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
