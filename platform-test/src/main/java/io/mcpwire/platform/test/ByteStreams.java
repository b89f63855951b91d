package io.mcpwire.platform.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** {@code InputStream} and {@code OutputStream} faces over a block read or write of the fake. */
final class ByteStreams {
    private ByteStreams() {
    }

    /** A block read: bytes read, or -1 at end. */
    @FunctionalInterface
    interface BlockRead {
        int read(byte[] b, int off, int len) throws IOException;
    }

    /** A block write of all {@code len} bytes. */
    @FunctionalInterface
    interface BlockWrite {
        void write(byte[] b, int off, int len) throws IOException;
    }

    static InputStream input(BlockRead read) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return read.read(b, off, len);
            }
        };
    }

    /** An output stream; {@code close} runs {@code onClose}. */
    static OutputStream output(BlockWrite write, Runnable onClose) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                write.write(b, off, len);
            }

            @Override
            public void close() {
                onClose.run();
            }
        };
    }
}
