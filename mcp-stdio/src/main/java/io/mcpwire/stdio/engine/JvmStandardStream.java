package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/**
 * fd 0 or fd 1 through the JVM's own {@link FileDescriptor}s, for serving in place when no
 * platform provider is available. A pending read cannot be woken; the transport's threads are
 * daemons, so one left blocked never keeps the JVM alive.
 */
final class JvmStandardStream implements DescriptorStream {
    private final int fd;
    private final FileInputStream in;
    private final FileOutputStream out;
    private volatile boolean woken;

    JvmStandardStream(int fd) {
        this.fd = fd;
        this.in = fd == 0 ? new FileInputStream(FileDescriptor.in) : null;
        this.out = fd == 1 ? new FileOutputStream(FileDescriptor.out) : null;
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
        if (in == null) {
            throw new IOException("fd " + fd + " is not open for reading here");
        }
        return in.read(buffer, offset, length);
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        if (woken) {
            throw new AsynchronousCloseException();
        }
        if (out == null) {
            throw new IOException("fd " + fd + " is not open for writing here");
        }
        out.write(buffer, offset, length);
    }

    @Override
    public void wakeUp() {
        woken = true;
    }

    @Override
    public void close() {
        woken = true; // never closes FileDescriptor.in/out: they stay the process's fd 0 and fd 1
    }
}
