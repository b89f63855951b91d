package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PlatformDescriptors;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.Charset;

/**
 * The JVM's own standard streams. For providers whose JVM streams do not follow the descriptors
 * (Windows): points
 * {@code System.in} at an empty stream and {@code System.out} at the diverted fd 1 for the
 * session, and puts the originals back on {@link #undo()}.
 */
public final class JvmStreams {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");

    private InputStream originalIn;
    private InputStream swappedIn;
    private PrintStream originalOut;
    private PrintStream swappedOut;
    private DescriptorStream divertedFd1;

    private JvmStreams() {
    }

    /** fd 0 or fd 1 through the JVM's file descriptors, for serving in place without a provider. */
    public static DescriptorStream standardStream(int fd) {
        return new JvmStandardStream(fd);
    }

    /** Swaps what is diverted; returns null when nothing needs swapping. */
    public static JvmStreams swapIfNeeded(PlatformDescriptors platform, StreamClaim in, StreamClaim out) {
        if (platform == null || platform.jvmStreamsFollowDescriptors()) {
            return null;
        }
        JvmStreams swap = new JvmStreams();
        if (out != null && out.isolated()) {
            try {
                swap.divertedFd1 = platform.open(PlatformDescriptors.STDOUT);
                swap.originalOut = System.out;
                // Buffered like the JVM's own System.out, so unflushed text behaves the same.
                swap.swappedOut = new PrintStream(new BufferedOutputStream(new DivertedOut(swap.divertedFd1), 128),
                        true, stdoutCharset());
                System.setOut(swap.swappedOut);
            } catch (DescriptorException e) {
                LOG.log(Level.WARNING, "System.out could not be pointed at the diverted fd 1 ({0}); "
                        + "it keeps writing to the handle the JVM captured at start-up", e.getMessage());
            }
        }
        if (in != null && in.isolated()) {
            swap.originalIn = System.in;
            swap.swappedIn = InputStream.nullInputStream();
            System.setIn(swap.swappedIn);
        }
        return swap;
    }

    /** Flushes the swapped {@code System.out} into the diversion and restores the originals. */
    public void undo() {
        if (swappedOut != null) {
            swappedOut.flush();
            if (System.out == swappedOut) {
                System.setOut(originalOut);
            } else {
                LOG.log(Level.WARNING, "System.out was replaced during the session; leaving the replacement");
            }
            divertedFd1.close();
            swappedOut = null;
        }
        if (swappedIn != null) {
            if (System.in == swappedIn) {
                System.setIn(originalIn);
            }
            swappedIn = null;
        }
    }

    private static Charset stdoutCharset() {
        String name = System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        try {
            return name != null ? Charset.forName(name) : Charset.defaultCharset();
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }

    /** Writes to the diverted fd 1. */
    private static final class DivertedOut extends OutputStream {
        private final DescriptorStream fd1;

        DivertedOut(DescriptorStream fd1) {
            this.fd1 = fd1;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            fd1.write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            fd1.write(b, off, len);
        }
    }
}
