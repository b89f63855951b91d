package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/**
 * A standard stream the claim leaves alone (see {@link io.mcpwire.stdio.ClaimState#ABSENT}): reads
 * are at end of input at once when the parent gave none, and fail with the reason when its origin
 * could not be told; writes always fail with the reason. No byte is read from, or written to, a
 * file the JVM opened for itself.
 */
public final class AbsentStream implements DescriptorStream {
    private final int fd;
    private final Diversions.Absence why;
    private volatile boolean woken;

    /** A stream for {@code fd}, left alone for {@code why}. */
    public AbsentStream(int fd, Diversions.Absence why) {
        this.fd = fd;
        this.why = why;
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
        if (!why.endOfInput()) {
            throw new DescriptorException("read", fd, 0, "no client can be read: " + why.reason());
        }
        return -1;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
        throw new DescriptorException("write", fd, 0, "no client can be reached: " + why.reason());
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
