package io.mcpwire.stdio;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.engine.ClaimRegistry;
import io.mcpwire.stdio.engine.Endpoint;
import io.mcpwire.stdio.engine.JvmStreams;
import io.mcpwire.stdio.engine.ProviderSelection;
import io.mcpwire.stdio.engine.StreamClaim;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * The claim of the process's standard streams: while it is held, the protocol wire is served
 * from private descriptors that child processes do not inherit, fd 0 reads the null device, and
 * fd 1 writes to stderr, so that stray output (a print to {@code System.out}, a library that logs to
 * stdout, a child started with {@code inheritIO()}) never reaches the client. {@link #close()}
 * puts both back.
 *
 * <p>Take it first thing in {@code main}, before anything prints or reads {@code System.in}, and
 * serve the wire through {@link #input()} and {@link #output()}, with mcpwire's transport or any
 * other that takes streams:
 *
 * <pre>{@code
 * try (StdioClaim claim = StdioClaim.acquire()) {
 *     serve(claim.input(), claim.output());
 * }
 * }</pre>
 *
 * <p>Acquiring never fails for a descriptor reason: when the wire cannot be isolated the claim
 * serves the stream in place ({@link ClaimState#IN_PLACE}) and logs why. It fails only when
 * another claim holds a stream ({@link ClaimRefusedException}). See {@code docs/claim.md}.
 */
public final class StdioClaim implements AutoCloseable {
    private static final Duration DEFAULT_WAKE_TIMEOUT = Duration.ofSeconds(5);

    private final PlatformDescriptors platform;
    private final Object table;
    private final StreamClaim in;
    private final StreamClaim out;
    private final Endpoint inEndpoint;
    private final Endpoint outEndpoint;
    private final long wakeTimeoutMillis;
    private JvmStreams swap;
    private boolean released;

    private StdioClaim(Builder b) {
        platform = ProviderSelection.choose(b.platform);
        table = platform == null ? PlatformDescriptors.PROCESS_TABLE : platform.descriptorTable();
        wakeTimeoutMillis = b.wakeTimeout.toMillis();
        // Rule 1: register every descriptor before touching any; a refusal changes nothing.
        if (b.input) {
            ClaimRegistry.register(table, PlatformDescriptors.STDIN, this);
        }
        if (b.output) {
            try {
                ClaimRegistry.register(table, PlatformDescriptors.STDOUT, this);
            } catch (ClaimRefusedException e) {
                if (b.input) {
                    ClaimRegistry.deregister(table, PlatformDescriptors.STDIN, this);
                }
                throw e;
            }
        }
        in = b.input ? new StreamClaim(platform, PlatformDescriptors.STDIN) : null;
        out = b.output ? new StreamClaim(platform, PlatformDescriptors.STDOUT) : null;
        if (in != null) {
            in.engage();
        }
        if (out != null) {
            out.engage();
        }
        swap = JvmStreams.swapIfNeeded(platform, in, out);
        inEndpoint = in != null ? endpoint(in, "stdin") : null;
        outEndpoint = out != null ? endpoint(out, "stdout") : null;
    }

    private Endpoint endpoint(StreamClaim claim, String what) {
        int serving = claim.servingDescriptor();
        String name = what + (serving != claim.fd() ? " (private fd " + serving + ")" : " (in place)");
        if (platform == null) {
            return new Endpoint(name, () -> JvmStreams.standardStream(claim.fd()), false);
        }
        return new Endpoint(name, () -> platform.open(serving), true);
    }

    /** Claims both standard streams with the automatically chosen platform provider. */
    public static StdioClaim acquire() {
        return builder().acquire();
    }

    /** A builder, to choose the streams or the provider. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The wire's input: reads what the client sends. Unbuffered; closing it wakes a pending read.
     *
     * @throws IllegalStateException when stdin was not claimed
     */
    public InputStream input() {
        if (inEndpoint == null) {
            throw new IllegalStateException("stdin was not claimed");
        }
        return inEndpoint.inputStream();
    }

    /**
     * The wire's output: reaches the client. Unbuffered; closing it wakes a pending write.
     *
     * @throws IllegalStateException when stdout was not claimed
     */
    public OutputStream output() {
        if (outEndpoint == null) {
            throw new IllegalStateException("stdout was not claimed");
        }
        return outEndpoint.outputStream();
    }

    /** The state of stdin's claim, or null when stdin was not claimed. */
    public ClaimState inputState() {
        return in != null ? in.state() : null;
    }

    /** The state of stdout's claim, or null when stdout was not claimed. */
    public ClaimState outputState() {
        return out != null ? out.state() : null;
    }

    /** Whether every claimed stream is served from a private descriptor. */
    public boolean isIsolated() {
        return (in == null || in.isolated()) && (out == null || out.isolated());
    }

    /** Whether a thread blocked reading {@link #input()} can be woken (false without a provider). */
    boolean canWakeReader() {
        return platform != null;
    }

    /** The platform provider's name, or {@code "none"} when serving in place without one. */
    public String platformName() {
        return platform != null ? platform.name() : "none";
    }

    /**
     * Wakes any thread blocked on the wire, waits for it to leave, and puts fd 0 and fd 1 back
     * on the wire. Never throws. If a restore fails, the stream stays claimed ({@link
     * ClaimState#STUCK}) so that no later claim is handed the diversion, and closing again
     * retries it.
     */
    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        boolean inQuiet = inEndpoint == null || inEndpoint.shutdown(wakeTimeoutMillis);
        boolean outQuiet = outEndpoint == null || outEndpoint.shutdown(wakeTimeoutMillis);
        if (swap != null) {
            swap.undo();
            swap = null;
        }
        boolean done = release(out, outQuiet);
        done &= release(in, inQuiet);
        released = done;
    }

    private boolean release(StreamClaim claim, boolean quiet) {
        if (claim == null) {
            return true;
        }
        if (claim.release(quiet)) {
            ClaimRegistry.deregister(table, claim.fd(), this);
            return true;
        }
        return false;
    }

    /** Whether {@link #close()} has put every claimed stream back. */
    public synchronized boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return "StdioClaim[" + platformName() + (in != null ? ", " + in : "") + (out != null ? ", " + out : "") + "]";
    }

    /** Options for a claim. */
    public static final class Builder {
        private PlatformDescriptors platform;
        private boolean input = true;
        private boolean output = true;
        private Duration wakeTimeout = DEFAULT_WAKE_TIMEOUT;

        private Builder() {
        }

        /** Uses this provider instead of choosing one (see {@code docs/platforms.md}). */
        public Builder platform(PlatformDescriptors platform) {
            this.platform = platform;
            return this;
        }

        /** Whether to claim stdin (default true). */
        public Builder input(boolean claim) {
            this.input = claim;
            return this;
        }

        /** Whether to claim stdout (default true). */
        public Builder output(boolean claim) {
            this.output = claim;
            return this;
        }

        /**
         * How long {@link StdioClaim#close()} waits for a woken reader or writer to leave before
         * it restores the descriptors anyway and leaves the private duplicate open (default 5 s).
         */
        public Builder wakeTimeout(Duration timeout) {
            this.wakeTimeout = timeout;
            return this;
        }

        /**
         * Claims the chosen streams.
         *
         * @throws ClaimRefusedException when another claim holds one of them; nothing changes
         * @throws IllegalStateException when neither stream is chosen
         */
        public StdioClaim acquire() {
            if (!input && !output) {
                throw new IllegalStateException("claim stdin, stdout or both");
            }
            return new StdioClaim(this);
        }
    }
}
