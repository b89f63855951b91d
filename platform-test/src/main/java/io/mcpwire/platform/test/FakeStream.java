package io.mcpwire.platform.test;

import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/** A descriptor stream of a {@link FakeProcess}: each call resolves the descriptor afresh. */
final class FakeStream implements DescriptorStream {
    private final FakeProcess process;
    private final int fd;
    /** Guarded by the process lock. */
    boolean woken;

    FakeStream(FakeProcess process, int fd) {
        this.process = process;
        this.fd = fd;
    }

    @Override
    public int descriptor() {
        return fd;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        checkOpen();
        if (length == 0) {
            return 0;
        }
        return process.read(this, buffer, offset, length);
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        checkOpen();
        if (length > 0) {
            process.write(this, buffer, offset, length);
        }
    }

    private void checkOpen() throws AsynchronousCloseException {
        process.lock.lock();
        try {
            if (woken) {
                throw new AsynchronousCloseException();
            }
        } finally {
            process.lock.unlock();
        }
    }

    @Override
    public void wakeUp() {
        process.wake(this);
    }

    @Override
    public void close() {
        wakeUp();
    }

    @Override
    public String toString() {
        return "FakeStream[fd " + fd + "]";
    }
}
