package io.mcpwire.platform.rules;

import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.Objects;

/**
 * A base for {@link DescriptorStream}s of real descriptor tables, which move bytes through native
 * buffers of at most {@link #CHUNK} bytes: it cuts reads and writes into chunks, copies between
 * the caller's array and the subclass's native buffers, makes every call after
 * {@link #wakeUp()} fail, and frees the subclass's resources once.
 *
 * <p>It does not count calls in flight: its caller (mcpwire's wire) closes a stream only once no
 * call is left in it, so a resource freed here is never recycled under a blocked call.
 */
public abstract class ChunkedStream implements DescriptorStream {
    /** The largest piece read or written by one native call, and the size of each native buffer. */
    public static final int CHUNK = 64 * 1024;

    private volatile boolean woken;
    private boolean freed; // guarded by this

    /** For subclasses. */
    protected ChunkedStream() {
    }

    @Override
    public final int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        checkWoken();
        int n = readChunk(Math.min(length, CHUNK));
        if (n > 0) {
            copyOut(buffer, offset, n);
        }
        return n;
    }

    @Override
    public final void write(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        for (int done = 0; done < length; ) {
            int chunk = Math.min(length - done, CHUNK);
            copyIn(buffer, offset + done, chunk);
            for (int sent = 0; sent < chunk; ) {
                checkWoken();
                sent += writeSome(sent, chunk - sent);
            }
            done += chunk;
        }
    }

    /**
     * Reads up to {@code max} bytes into the native read buffer, blocking until at least one is
     * there; retries interruptions itself, calling {@link #checkWoken()} between tries.
     *
     * @return the number of bytes read, or -1 at end of input
     */
    protected abstract int readChunk(int max) throws IOException;

    /** Copies the first {@code n} bytes of the native read buffer into {@code buffer}. */
    protected abstract void copyOut(byte[] buffer, int offset, int n);

    /** Copies {@code n} bytes of {@code buffer} to the start of the native write buffer. */
    protected abstract void copyIn(byte[] buffer, int offset, int n);

    /**
     * Writes up to {@code n} bytes from the native write buffer at {@code from}, blocking until the
     * descriptor takes some.
     *
     * @return the number of bytes written, 0 when interrupted before any was
     */
    protected abstract int writeSome(int from, int n) throws IOException;

    /**
     * Throws once the stream has been woken or closed: called before each blocking step.
     *
     * @throws AsynchronousCloseException after {@link #wakeUp()} or {@link #close()}
     */
    protected final void checkWoken() throws AsynchronousCloseException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
    }

    /** Whether the resources have been freed: a late wake-up must not touch them. */
    protected final synchronized boolean isFreed() {
        return freed;
    }

    @Override
    public final void wakeUp() {
        woken = true;
        synchronized (this) {
            if (freed) {
                return;
            }
        }
        interruptCalls();
    }

    @Override
    public final void close() {
        woken = true;
        synchronized (this) {
            if (!freed) {
                freed = true;
                freeResources();
            }
        }
    }

    /**
     * Unblocks the calls in flight; called without the stream's lock, possibly more than once and
     * concurrently with {@link #freeResources()} (check {@link #isFreed()} under the lock).
     */
    protected abstract void interruptCalls();

    /** Frees the stream's own resources; called once, under the lock, with no call in flight. */
    protected abstract void freeResources();
}
