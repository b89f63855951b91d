package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.AsynchronousCloseException;

/**
 * One served descriptor: opens its {@link DescriptorStream} on first use, counts the calls in
 * flight, and on {@link #shutAndAwaitIdle} wakes them and waits until none is left, so that the claim
 * never restores or closes a descriptor under a blocked reader.
 */
public final class Endpoint {

    /** Opens the stream; called once, on first use. */
    @FunctionalInterface
    public interface Opener {
        /** Opens the stream. */
        DescriptorStream open() throws IOException;
    }

    private final String name;
    private final Opener opener;
    private final boolean wakeable;
    private DescriptorStream stream;
    private boolean shut;
    private int inFlight;

    /**
     * @param name     for messages, for example {@code "stdin (private fd 3)"}
     * @param opener   opens the stream on first use
     * @param wakeable whether the stream's wake-up really unblocks a pending call; when not,
     *                 shutdown does not wait for one
     */
    public Endpoint(String name, Opener opener, boolean wakeable) {
        this.name = name;
        this.opener = opener;
        this.wakeable = wakeable;
    }

    private synchronized DescriptorStream enter() throws IOException {
        if (shut) {
            throw new AsynchronousCloseException();
        }
        if (stream == null) {
            stream = opener.open();
        }
        inFlight++;
        return stream;
    }

    private synchronized void exit() {
        if (--inFlight == 0) {
            notifyAll();
        }
    }

    int read(byte[] b, int off, int len) throws IOException {
        DescriptorStream s = enter();
        try {
            return s.read(b, off, len);
        } finally {
            exit();
        }
    }

    void write(byte[] b, int off, int len) throws IOException {
        DescriptorStream s = enter();
        try {
            s.write(b, off, len);
        } finally {
            exit();
        }
    }

    /** Makes every later call fail and wakes the pending ones, without waiting. */
    public synchronized void wake() {
        shut = true;
        if (stream != null) {
            stream.wakeUp();
        }
    }

    /**
     * Wakes pending calls and waits up to {@code timeoutMillis} for them to leave, then frees the
     * stream's resources.
     *
     * @return true when no call is left in flight (always false for a stream that cannot be woken
     *         while a call is pending)
     */
    public synchronized boolean shutAndAwaitIdle(long timeoutMillis) {
        wake();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        boolean interrupted = false;
        while (inFlight > 0 && wakeable) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        boolean quiet = inFlight == 0;
        if (quiet && stream != null) {
            stream.close();
        }
        return quiet;
    }

    /** An input stream over this endpoint; closing it wakes a pending read. */
    public InputStream inputStream() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n;
                do {
                    n = Endpoint.this.read(one, 0, 1);
                } while (n == 0);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                java.util.Objects.checkFromIndexSize(off, len, b.length);
                return len == 0 ? 0 : Endpoint.this.read(b, off, len);
            }

            @Override
            public void close() {
                wake();
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** An unbuffered output stream over this endpoint; closing it wakes a pending write. */
    public OutputStream outputStream() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                Endpoint.this.write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                java.util.Objects.checkFromIndexSize(off, len, b.length);
                Endpoint.this.write(b, off, len);
            }

            @Override
            public void close() {
                wake();
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
