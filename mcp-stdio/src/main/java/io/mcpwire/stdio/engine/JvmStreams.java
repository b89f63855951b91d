package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PlatformDescriptors;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.Charset;

/**
 * The JVM's own standard streams, for providers whose JVM streams do not follow the descriptors
 * (Windows, where they keep the OS handles captured at start-up). While claimed, {@code System.in}
 * reads nothing and {@code System.out} (and {@code System.err}, when fd 2 is claimed) write the
 * diverted descriptors. The originals are never used again: the C runtime's {@code _dup2} closed
 * the handles they hold. So {@link #reattach} gives the JVM new streams over the descriptors as
 * the release left them.
 */
public final class JvmStreams {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");

    private final PlatformDescriptors platform;
    private InputStream swappedIn;
    private PrintStream swappedOut;
    private PrintStream swappedErr;
    private DescriptorStream divertedOut;
    private DescriptorStream divertedErr;

    private JvmStreams(PlatformDescriptors platform) {
        this.platform = platform;
    }

    /** fd 0 or fd 1 through the JVM's file descriptors, for serving in place without a provider. */
    public static DescriptorStream standardStream(int fd) {
        return new JvmStandardStream(fd);
    }

    /** A stream for a standard descriptor the parent never gave: end of input, or writes that fail. */
    public static DescriptorStream absentStream(int fd, String reason) {
        return new AbsentStream(fd, reason);
    }

    /** Flushes {@code stream}, logging rather than throwing whatever it throws. */
    public static void flushQuietly(PrintStream stream, String what) {
        try {
            stream.flush();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "flushing " + what + " failed; going on", e);
        }
    }

    /** Swaps what is diverted; returns null when nothing needs swapping. Claims may be null. */
    public static JvmStreams swapIfNeeded(PlatformDescriptors platform, StreamClaim in, StreamClaim out, StreamClaim err) {
        if (platform == null || platform.jvmStreamsFollowDescriptors()) {
            return null;
        }
        JvmStreams swap = new JvmStreams(platform);
        if (isolated(out)) {
            swap.divertedOut = swap.openQuietly(PlatformDescriptors.STDOUT);
            if (swap.divertedOut != null) {
                swap.swappedOut = printStream(swap.divertedOut, "stdout.encoding");
                System.setOut(swap.swappedOut);
            }
        }
        if (isolated(err)) {
            swap.divertedErr = swap.openQuietly(PlatformDescriptors.STDERR);
            if (swap.divertedErr != null) {
                swap.swappedErr = printStream(swap.divertedErr, "stderr.encoding");
                System.setErr(swap.swappedErr);
            }
        }
        if (isolated(in)) {
            swap.swappedIn = InputStream.nullInputStream();
            System.setIn(swap.swappedIn);
        }
        return swap;
    }

    private static boolean isolated(StreamClaim claim) {
        return claim != null && claim.isolated();
    }

    /** Flushes the swapped streams into the diversions; call before the descriptors are restored. */
    public void drain() {
        if (swappedOut != null) {
            flushQuietly(swappedOut, "System.out");
            divertedOut.close();
        }
        if (swappedErr != null) {
            flushQuietly(swappedErr, "System.err");
            divertedErr.close();
        }
    }

    /**
     * After the release: each swapped stream that is still installed is replaced by a new one over
     * the descriptor as it is now (the wire again, or the diversion if its restore failed). A
     * stream the user replaced during the session is left as the user set it.
     */
    public void reattach() {
        if (swappedOut != null && System.out == swappedOut) {
            DescriptorStream fd1 = openQuietly(PlatformDescriptors.STDOUT);
            System.setOut(fd1 != null ? printStream(fd1, "stdout.encoding") : new PrintStream(OutputStream.nullOutputStream()));
        } else if (swappedOut != null) {
            LOG.log(Level.WARNING, "System.out was replaced during the session; leaving the replacement");
        }
        if (swappedErr != null && System.err == swappedErr) {
            DescriptorStream fd2 = openQuietly(PlatformDescriptors.STDERR);
            System.setErr(fd2 != null ? printStream(fd2, "stderr.encoding") : new PrintStream(OutputStream.nullOutputStream()));
        }
        if (swappedIn != null && System.in == swappedIn) {
            DescriptorStream fd0 = openQuietly(PlatformDescriptors.STDIN);
            System.setIn(fd0 != null ? new BufferedInputStream(new DescriptorInput(fd0)) : InputStream.nullInputStream());
        }
        swappedOut = null;
        swappedErr = null;
        swappedIn = null;
    }

    private DescriptorStream openQuietly(int fd) {
        try {
            return platform.open(fd);
        } catch (DescriptorException | RuntimeException e) {
            LOG.log(Level.WARNING, "the JVM''s stream for fd {0} could not be pointed at it ({1})", fd, e.getMessage());
            return null;
        }
    }

    /** Buffered like the JVM's own streams, so unflushed text behaves the same. */
    private static PrintStream printStream(DescriptorStream fd, String encodingProperty) {
        return new PrintStream(new BufferedOutputStream(new DescriptorOutput(fd), 128), true, charset(encodingProperty));
    }

    private static Charset charset(String property) {
        String name = System.getProperty(property, System.getProperty("sun." + property));
        try {
            return name != null ? Charset.forName(name) : Charset.defaultCharset();
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }

    /** Writes a descriptor stream. */
    private static final class DescriptorOutput extends OutputStream {
        private final DescriptorStream fd;

        DescriptorOutput(DescriptorStream fd) {
            this.fd = fd;
        }

        @Override
        public void write(int b) throws IOException {
            fd.write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            fd.write(b, off, len);
        }
    }

    /** Reads a descriptor stream. */
    private static final class DescriptorInput extends InputStream {
        private final DescriptorStream fd;

        DescriptorInput(DescriptorStream fd) {
            this.fd = fd;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n;
            do {
                n = fd.read(one, 0, 1);
            } while (n == 0);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : fd.read(b, off, len);
        }
    }
}
