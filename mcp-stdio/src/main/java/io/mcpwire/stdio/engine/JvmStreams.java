package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PlatformDescriptors;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.Charset;
import java.util.Set;

/**
 * The JVM's own standard streams, for providers whose JVM streams do not follow the descriptors
 * (Windows, where they keep the OS handles captured at start-up). While claimed, {@code System.in}
 * reads nothing and {@code System.out} (and {@code System.err}, when fd 2 is claimed) write the
 * diverted descriptors. The originals are never used again: the C runtime's {@code _dup2} closed
 * the handles they hold. So {@link #reattach} gives the JVM new streams over the descriptors as
 * the release left them.
 */
public final class JvmStreams {
    /** How long draining waits for a thread still writing a swapped stream. */
    private static final long DRAIN_MILLIS = 1_000;

    private final PlatformDescriptors platform;
    private InputStream swappedIn;
    private PrintStream swappedOut;
    private PrintStream swappedErr;
    private Endpoint divertedOut;
    private Endpoint divertedErr;

    private JvmStreams(PlatformDescriptors platform) {
        this.platform = platform;
    }

    /** fd 0 or fd 1 through the JVM's file descriptors, for serving in place without a provider. */
    public static DescriptorStream standardStream(int fd) {
        return new JvmStandardStream(fd);
    }

    /** Flushes {@code stream}, logging rather than throwing whatever it throws. */
    public static void flushQuietly(PrintStream stream, String what) {
        try {
            stream.flush();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "flushing " + what + " failed; going on", e);
        }
    }

    /** Nothing swapped, for a claim that has not got that far. */
    public static JvmStreams none(PlatformDescriptors platform) {
        return new JvmStreams(platform);
    }

    /**
     * Swaps the JVM's streams for the claimed descriptors that are {@code isolated} (off the wire,
     * served from private duplicates), where the JVM's streams do not follow the descriptors;
     * elsewhere swaps nothing.
     */
    public static JvmStreams swapIfNeeded(PlatformDescriptors platform, Set<Integer> isolated) {
        JvmStreams swap = new JvmStreams(platform);
        if (platform.jvmStreamsFollowDescriptors()) {
            return swap;
        }
        // A stream that cannot be pointed at its diversion discards instead: the original holds a
        // handle that _dup2 closed, whose value a later handle may reuse, perhaps the wire's.
        if (isolated.contains(PlatformDescriptors.STDOUT)) {
            swap.divertedOut = swap.endpoint(PlatformDescriptors.STDOUT, "System.out (diverted fd 1)");
            swap.swappedOut = printStreamOrDiscard(swap.divertedOut, "stdout.encoding");
            System.setOut(swap.swappedOut);
        }
        if (isolated.contains(PlatformDescriptors.STDERR)) {
            swap.divertedErr = swap.endpoint(PlatformDescriptors.STDERR, "System.err (diverted fd 2)");
            swap.swappedErr = printStreamOrDiscard(swap.divertedErr, "stderr.encoding");
            System.setErr(swap.swappedErr);
        }
        if (isolated.contains(PlatformDescriptors.STDIN)) {
            swap.swappedIn = InputStream.nullInputStream();
            System.setIn(swap.swappedIn);
        }
        return swap;
    }

    /** Flushes the swapped streams into the diversions; call before the descriptors are restored. */
    public void drain() {
        if (swappedOut != null) {
            flushQuietly(swappedOut, "System.out");
        }
        if (divertedOut != null) {
            divertedOut.shutAndAwaitIdle(DRAIN_MILLIS);
        }
        if (swappedErr != null) {
            flushQuietly(swappedErr, "System.err");
        }
        if (divertedErr != null) {
            divertedErr.shutAndAwaitIdle(DRAIN_MILLIS);
        }
    }

    /**
     * After the release: each swapped stream that is still installed is replaced by a new one over
     * the descriptor as it is now (the wire again, or the diversion if its restore failed). A
     * stream the user replaced during the session is left as the user set it.
     */
    public void reattach() {
        if (swappedOut != null && System.out == swappedOut) {
            Endpoint fd1 = endpoint(PlatformDescriptors.STDOUT, "System.out (fd 1)");
            System.setOut(printStreamOrDiscard(fd1, "stdout.encoding"));
        } else if (swappedOut != null) {
            LOG.log(Level.WARNING, "System.out was replaced during the session; leaving the replacement");
        }
        if (swappedErr != null && System.err == swappedErr) {
            Endpoint fd2 = endpoint(PlatformDescriptors.STDERR, "System.err (fd 2)");
            System.setErr(printStreamOrDiscard(fd2, "stderr.encoding"));
        }
        if (swappedIn != null && System.in == swappedIn) {
            Endpoint fd0 = endpoint(PlatformDescriptors.STDIN, "System.in (fd 0)");
            System.setIn(fd0 != null ? new BufferedInputStream(fd0.inputStream()) : InputStream.nullInputStream());
        }
        swappedOut = null;
        swappedErr = null;
        swappedIn = null;
    }

    /** An endpoint on {@code fd}, opened now so that a failure is logged; null when it cannot be opened. */
    private Endpoint endpoint(int fd, String name) {
        try {
            DescriptorStream stream = platform.open(fd);
            return new Endpoint(name, () -> stream, true);
        } catch (DescriptorException | RuntimeException e) {
            LOG.log(Level.WARNING, "the JVM''s stream for fd {0} could not be pointed at it ({1})", fd, e.getMessage());
            return null;
        }
    }

    /** Buffered like the JVM's own streams, so unflushed text behaves the same; with no endpoint, a stream that discards. */
    private static PrintStream printStreamOrDiscard(Endpoint fd, String encodingProperty) {
        if (fd == null) {
            return new PrintStream(OutputStream.nullOutputStream());
        }
        return new PrintStream(new BufferedOutputStream(fd.outputStream(), 128), true, charset(encodingProperty));
    }

    private static Charset charset(String property) {
        String name = System.getProperty(property, System.getProperty("sun." + property));
        try {
            return name != null ? Charset.forName(name) : Charset.defaultCharset();
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }
}
