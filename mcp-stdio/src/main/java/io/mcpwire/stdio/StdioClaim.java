package io.mcpwire.stdio;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.engine.AbsentStream;
import io.mcpwire.stdio.engine.ClaimRegistry;
import io.mcpwire.stdio.engine.Diversions;
import io.mcpwire.stdio.engine.Endpoint;
import io.mcpwire.stdio.engine.JvmStreams;
import io.mcpwire.stdio.engine.ProviderSelection;
import io.mcpwire.stdio.engine.StreamClaim;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");
    private static final Duration DEFAULT_WAKE_TIMEOUT = Duration.ofSeconds(5);

    private final PlatformDescriptors platform;
    private final DescriptorTable table;
    private final long wakeTimeoutMillis;
    private final List<Integer> registered = new ArrayList<>();
    private StreamClaim in;
    private StreamClaim out;
    private StreamClaim err;
    private Endpoint inEndpoint;
    private Endpoint outEndpoint;
    private JvmStreams swap;
    private boolean released;

    private StdioClaim(Builder b) {
        Isolation isolation = b.isolation != null ? b.isolation : Isolation.fromSystemProperty();
        ProviderSelection.Choice choice = ProviderSelection.choose(b.platform, isolation == Isolation.PREFERRED);
        if (choice.provider() == null && isolation == Isolation.REQUIRED) {
            throw new IsolationUnavailableException(choice.whyNone());
        }
        platform = choice.provider();
        table = platform == null ? DescriptorTable.PROCESS : platform.descriptorTable();
        wakeTimeoutMillis = b.wakeTimeout.toMillis();
        try {
            engage(b, isolation);
        } catch (RuntimeException | Error e) {
            abandon(); // a claim that fails half-way releases what it took
            throw e;
        }
    }

    private void engage(Builder b, Isolation isolation) {
        // Rule 1: register every descriptor before touching any; a refusal changes nothing.
        if (b.input) {
            register(PlatformDescriptors.STDIN);
        }
        if (b.output) {
            register(PlatformDescriptors.STDOUT);
            register(PlatformDescriptors.STDERR); // fd 2 goes with fd 1: it may be the wire too
        }
        StrayOutput stray = b.stray != null ? b.stray : StrayOutput.fromSystemProperty();
        Diversions diversions = new Diversions(platform, stray);
        in = b.input ? new StreamClaim(platform, PlatformDescriptors.STDIN, diversions::stdin) : null;
        out = b.output ? new StreamClaim(platform, PlatformDescriptors.STDOUT, diversions::stdout) : null;
        boolean inGiven = in != null && diversions.given(PlatformDescriptors.STDIN);
        boolean outGiven = out != null && diversions.given(PlatformDescriptors.STDOUT);
        if (outGiven && diversions.stderrIsWire()) {
            err = new StreamClaim(platform, PlatformDescriptors.STDERR, diversions::stderr); // the fd 2 rule
        }
        engageOrLeave(in, inGiven, diversions);
        engageOrLeave(out, outGiven, diversions);
        if (err != null) {
            err.engage();
        }
        swap = JvmStreams.swapIfNeeded(platform, in, out, err);
        inEndpoint = in != null ? endpoint(in, "stdin") : null;
        outEndpoint = out != null ? endpoint(out, "stdout") : null;
        if (isolation == Isolation.REQUIRED && !isIsolated()) {
            throw new IsolationUnavailableException(reasons());
        }
    }

    private static void engageOrLeave(StreamClaim claim, boolean given, Diversions diversions) {
        if (claim == null) {
            return;
        }
        if (given) {
            claim.engage();
        } else {
            claim.absent(diversions.absence(claim.fd()).orElseThrow());
        }
    }

    private void register(int fd) {
        ClaimRegistry.register(table, fd, this);
        registered.add(fd);
    }

    /** Puts back whatever a half-done claim took; what could not be put back stays registered. */
    private void abandon() {
        try {
            restore();
        } finally {
            released = true;
        }
    }

    private String reasons() {
        List<String> why = new ArrayList<>();
        for (StreamClaim c : new StreamClaim[] {in, out}) {
            if (!isolatedOrAbsent(c)) {
                why.add(c.reason());
            }
        }
        return String.join("; ", why);
    }

    private StreamClaim claimOf(int fd) {
        return switch (fd) {
            case PlatformDescriptors.STDIN -> in;
            case PlatformDescriptors.STDOUT -> out;
            default -> err;
        };
    }

    private Endpoint endpoint(StreamClaim claim, String what) {
        int fd = claim.fd();
        if (claim.state() == ClaimState.ABSENT) {
            return new Endpoint(what + " (absent)", () -> new AbsentStream(fd, claim.absence()), true);
        }
        int serving = claim.servingDescriptor();
        String name = what + (serving != fd ? " (private fd " + serving + ")" : " (in place)");
        if (platform == null) {
            return new Endpoint(name, () -> JvmStreams.standardStream(fd), false);
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

    /**
     * Whether no claimed stream is served in place: each is served from a private descriptor, or
     * absent (the parent gave none, so there is no wire on it to protect).
     */
    public boolean isIsolated() {
        return isolatedOrAbsent(in) && isolatedOrAbsent(out);
    }

    private static boolean isolatedOrAbsent(StreamClaim c) {
        return c == null || c.isolated() || c.state() == ClaimState.ABSENT;
    }

    /**
     * Whether fd 2 is the wire too ({@code 2>&1} into a pipe or file) and so claimed with fd 1:
     * then anything written to stderr after {@link #close()} reaches the client.
     */
    public boolean stderrIsWire() {
        return err != null;
    }

    /** Whether a thread blocked reading {@link #input()} can be woken (false without a provider). */
    boolean canWakeReader() {
        return platform != null;
    }

    /** Why stdout cannot carry answers (the parent gave none), or empty when it can. */
    Optional<String> outputAbsence() {
        return out != null && out.state() == ClaimState.ABSENT ? Optional.of(out.reason()) : Optional.empty();
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
        try {
            released = restore();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "releasing the stdio claim failed; closing it again retries", e);
        }
    }

    /**
     * Wakes the threads on the wire and waits for them to leave (rule 8), drains the JVM's
     * swapped streams, restores each stream, reattaches the JVM's streams, and deregisters every
     * descriptor that is free again (rule 7); true when all are.
     */
    private boolean restore() {
        boolean inQuiet = quiet(inEndpoint);
        boolean outQuiet = quiet(outEndpoint);
        if (swap != null) {
            swap.drain();
        }
        boolean done = err == null || err.release(true);
        done &= out == null || out.release(outQuiet);
        done &= in == null || in.release(inQuiet);
        if (swap != null) {
            swap.reattach();
            swap = null;
        }
        // fd 2 was registered with fd 1; a descriptor whose restore failed stays registered (STUCK).
        registered.removeIf(fd -> {
            StreamClaim c = claimOf(fd);
            boolean free = c == null || c.state() == ClaimState.RELEASED;
            if (free) {
                ClaimRegistry.deregister(table, fd, this);
            }
            return free;
        });
        return done;
    }

    private boolean quiet(Endpoint endpoint) {
        return endpoint == null || endpoint.shutdown(wakeTimeoutMillis);
    }

    /** Whether {@link #close()} has put every claimed stream back. */
    public synchronized boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return "StdioClaim[" + platformName() + (in != null ? ", " + in : "") + (out != null ? ", " + out : "")
                + (err != null ? ", " + err : "") + "]";
    }

    /** Options for a claim. */
    public static final class Builder {
        private PlatformDescriptors platform;
        private boolean input = true;
        private boolean output = true;
        private Duration wakeTimeout = DEFAULT_WAKE_TIMEOUT;
        private StrayOutput stray;
        private Isolation isolation;

        private Builder() {
        }

        /**
         * Where stray output goes while claimed (default: {@code -Dmcpwire.stray}, else
         * {@link StrayOutput#stderr()}).
         */
        public Builder strayOutput(StrayOutput stray) {
            this.stray = Objects.requireNonNull(stray, "stray");
            return this;
        }

        /**
         * Whether a claim that cannot isolate may serve in place (default: {@code -Dmcpwire.isolation},
         * else {@link Isolation#PREFERRED}).
         */
        public Builder isolation(Isolation isolation) {
            this.isolation = Objects.requireNonNull(isolation, "isolation");
            return this;
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
         * @throws IsolationUnavailableException when isolation is required and cannot be had;
         *                                       nothing changes
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
