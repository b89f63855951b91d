package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/**
 * A standard stream the parent process never gave (see {@link io.mcpwire.stdio.ClaimState#ABSENT}):
 * reads are at end of input at once, and writes fail with the reason, so that no byte is read
 * from, or written to, a file the JVM opened for itself.
 */
public final class AbsentStream implements DescriptorStream {
    private final int fd;
    private final String reason;
    private volatile boolean woken;

    /** A stream for {@code fd}, which the parent never gave, for {@code reason}. */
    public AbsentStream(int fd, String reason) {
        this.fd = fd;
        this.reason = reason;
    }

    @Override
    public int descriptor() {
        return fd;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
        return -1;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
        throw new IOException("no client can be reached: " + reason);
    }

    @Override
    public void wakeUp() {
        woken = true;
    }

    @Override
    public void close() {
        woken = true;
    }
}
