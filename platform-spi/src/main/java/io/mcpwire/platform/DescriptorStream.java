package io.mcpwire.platform;

import java.io.Closeable;
import java.io.IOException;

/**
 * Reads and writes one descriptor directly, without buffering. One thread may read while another
 * writes. {@link #wakeUp()} unblocks both and makes every later call fail, so that a transport
 * can stop a reader parked on an idle wire before it restores the descriptors.
 */
public interface DescriptorStream extends Closeable {

    /** The descriptor this stream reads and writes. */
    int descriptor();

    /**
     * Reads up to {@code length} bytes, blocking until at least one is available.
     *
     * @return the number of bytes read, or -1 at end of input
     * @throws java.nio.channels.AsynchronousCloseException after {@link #wakeUp()} or {@link #close()}
     * @throws DescriptorException when the read fails
     */
    int read(byte[] buffer, int offset, int length) throws IOException;

    /**
     * Writes all {@code length} bytes, looping over partial writes and interruptions.
     *
     * @throws java.nio.channels.AsynchronousCloseException after {@link #wakeUp()} or {@link #close()}
     * @throws DescriptorException when the write fails (for example the reader has gone)
     */
    void write(byte[] buffer, int offset, int length) throws IOException;

    /**
     * Makes, on the calling thread, whatever this stream will need to read or write from it (a
     * per-thread object that takes a value of the process's handle table, say), so that a thread
     * that will call it later allocates nothing then. A thread calls it once, before its
     * first read or write; the default makes nothing.
     */
    default void prepare() {
    }

    /**
     * Unblocks a pending read or write, and makes every later one fail. Any thread may call it,
     * at any time, more than once.
     */
    void wakeUp();

    /**
     * Frees the stream's own resources and makes every later call fail. The caller calls it only
     * once no read or write is in flight (wake them and wait for them to leave first): a stream
     * does not count its calls, and a resource freed under a blocked call could be recycled under
     * it. Never closes {@link #descriptor()}. Idempotent.
     *
     * <p>A stream may hold an open file description of its own on the same file (a non-blocking
     * one to write a pipe, say) until it is closed: the peer then sees end of input once both the
     * stream and the descriptor are closed, so close the stream first.
     */
    @Override
    void close();
}
