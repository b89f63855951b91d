package io.mcpwire.platform.test;

import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/** A descriptor stream of a fake process's POSIX face: each call resolves the descriptor afresh. */
final class FakeStream implements DescriptorStream {
    private final FakeKernel process;
    private final int fd;
    /** Guarded by the process lock. */
    boolean woken;
    /** A blocked read or write waits for any change of the table, and ends when this stream is woken. */
    private final FakeFile.Wait waitForChange = new FakeFile.Wait() {
        @Override
        public boolean woken() {
            return woken;
        }

        @Override
        public void await() {
            process.changed.awaitUninterruptibly();
        }
    };

    FakeStream(FakeKernel process, int fd) {
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
        return process.callIo(Op.READ, fd, -1, null, c -> {
            FakeFile f = process.open(c, fd);
            if (!f.canRead()) {
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (" + f.label + " is not open for reading)");
            }
            return f.read(buffer, offset, length, waitForChange);
        });
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        checkOpen();
        if (length == 0) {
            return;
        }
        // Each piece resolves the descriptor afresh: it may move while a write waits for room.
        process.callIo(Op.WRITE, fd, -1, null, c -> {
            for (int done = 0; done < length; ) {
                FakeFile f = process.open(c, fd);
                if (!f.canWrite()) {
                    throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (" + f.label + " is not open for writing)");
                }
                int n = f.write(buffer, offset + done, length - done, waitForChange);
                if (n < 0) {
                    throw FakeKernel.error(c, FakeErrors.EPIPE, "EPIPE (Broken pipe: the reader has gone)");
                }
                done += n;
                process.changed.signalAll();
            }
            return length;
        });
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
