package io.mcpwire.stdio;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.stdio.engine.ChildProcesses;
import io.mcpwire.stdio.engine.ClaimRequest;
import io.mcpwire.stdio.engine.HeldClaim;
import io.mcpwire.stdio.engine.ProviderClaim;
import io.mcpwire.stdio.engine.InPlaceClaim;
import io.mcpwire.stdio.engine.ProviderSelection;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
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
    private static final Duration DEFAULT_WAKE_TIMEOUT = Duration.ofSeconds(5);

    private final HeldClaim wire;
    private final McpwireSettings settings;

    private StdioClaim(Builder b) {
        settings = b.platform.isPresent() ? b.effectiveSettings().withPlatform(b.platform.get().name()) : b.effectiveSettings();
        Isolation isolation = settings.isolation();
        ClaimRequest request = new ClaimRequest(b.input, b.output, settings.strayOutput(), settings.stderr(), b.wakeTimeout.toMillis(),
                new ChildProcesses(settings.children(), settings.childrenGrace()));
        ProviderSelection.Choice choice = ProviderSelection.choose(b.platform, settings.platform(), isolation == Isolation.PREFERRED);
        if (choice instanceof ProviderSelection.Chosen chosen) {
            wire = new ProviderClaim(chosen.platform(), request, isolation);
        } else if (isolation == Isolation.REQUIRED) {
            throw new IsolationUnavailableException(((ProviderSelection.None) choice).why());
        } else {
            wire = new InPlaceClaim(request);
        }
    }

    /** Claims both standard streams with the automatically chosen platform provider. */
    public static StdioClaim acquire() {
        return builder().acquire();
    }

    /**
     * Loads the platform provider that a claim with {@code settings} would choose, its native
     * library and bindings included, and claims nothing, so that the claim made later does not wait
     * for them. For a framework to call on a thread of its own while the application starts: the
     * claim itself stays whole and synchronous. A provider that cannot be used is reported by the
     * claim, not here.
     */
    public static void prepare(McpwireSettings settings) {
        ProviderSelection.prepare(settings.platform());
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
        return wire.input();
    }

    /**
     * The wire's output: reaches the client. Unbuffered; closing it wakes a pending write.
     *
     * @throws IllegalStateException when stdout was not claimed
     */
    public OutputStream output() {
        return wire.output();
    }

    /** The state of stdin's claim, or null when stdin was not claimed. */
    public ClaimState inputState() {
        return wire.state(PlatformDescriptors.STDIN).orElse(null);
    }

    /** The state of stdout's claim, or null when stdout was not claimed. */
    public ClaimState outputState() {
        return wire.state(PlatformDescriptors.STDOUT).orElse(null);
    }

    /**
     * The state of fd 2's claim, or null when fd 2 is left alone. fd 2 is claimed when it is the
     * wire ({@link #stderrIsWire()}) or when it is guarded ({@link StderrPolicy#GUARDED}, a stderr
     * pipe or socket); a guarded fd 2 stays {@link ClaimState#KEPT_DIVERTED} after {@link #close()} while
     * stderr is not being read, so that writing it cannot block, and closing again retries.
     */
    public ClaimState stderrState() {
        return wire.state(PlatformDescriptors.STDERR).orElse(null);
    }

    /**
     * Whether no claimed stream of fd 0 and fd 1 is served in place: each is served from a private
     * descriptor, or absent (the parent gave none, so there is no wire on it to protect). fd 2 does
     * not count; a claim without a provider is never isolated.
     */
    public boolean isIsolated() {
        return wire.isIsolated();
    }

    /**
     * Whether fd 2 is the wire too ({@code 2>&1} into a pipe or file) and so claimed with fd 1:
     * then anything written to stderr after {@link #close()} reaches the client.
     */
    public boolean stderrIsWire() {
        return wire.stderrIsWire();
    }

    /** The platform provider's name, or {@code "none"} when serving in place without one. */
    public String platformName() {
        return wire.platformName();
    }

    /**
     * How the provider this claim is bound to waits for other processes' exits without polling (the
     * host watch's wait); empty when the claim serves in place or the provider cannot, and the host
     * is then polled.
     */
    public Optional<ProcessExits> processExits() {
        return wire.processExits();
    }

    /**
     * The wire this claim serves, as a transport drives it: its streams, whether the output is
     * absent, a wake that unblocks a pending read or write without waiting, and the release, which
     * is {@link #close()}.
     */
    public Wire wire() {
        return wire;
    }

    /**
     * Wakes any thread blocked on the wire, waits for it to leave, and puts fd 0 and fd 1 back
     * on the wire. Never throws. If a restore fails, the stream stays claimed ({@link
     * ClaimState#STUCK}) so that no later claim is handed the diversion, and closing again
     * retries it.
     */
    @Override
    public void close() {
        wire.release();
    }

    /** Whether {@link #close()} has put every claimed stream back. */
    public boolean isReleased() {
        return wire.isReleased();
    }

    @Override
    public String toString() {
        return wire.toString();
    }

    /** The settings this claim was taken with: the builder's, over the system properties read at {@code acquire}. */
    public McpwireSettings settings() {
        return settings;
    }

    /** Options for a claim. */
    public static final class Builder {
        private Optional<PlatformDescriptors> platform = Optional.empty();
        private boolean input = true;
        private boolean output = true;
        private Duration wakeTimeout = DEFAULT_WAKE_TIMEOUT;
        private Optional<McpwireSettings> settings = Optional.empty();
        private Optional<StrayOutput> stray = Optional.empty();
        private Optional<StderrPolicy> stderr = Optional.empty();
        private Optional<Isolation> isolation = Optional.empty();

        private Builder() {
        }

        /**
         * Every setting at once (see {@link McpwireSettings}), in place of the system properties,
         * which are otherwise read at {@link #acquire()}; the calls below still win over it.
         */
        public Builder settings(McpwireSettings settings) {
            this.settings = Optional.of(Objects.requireNonNull(settings, "settings"));
            return this;
        }

        /** Where stray output goes while claimed (default: {@code mcpwire.stray-output}, else {@link StrayOutput#stderr()}). */
        public Builder strayOutput(StrayOutput stray) {
            this.stray = Optional.of(Objects.requireNonNull(stray, "stray"));
            return this;
        }

        /**
         * Whether the process's own stderr goes through the stray-output drain while claimed
         * (default: {@code mcpwire.stderr}, else {@link StderrPolicy#GUARDED}).
         */
        public Builder stderr(StderrPolicy policy) {
            this.stderr = Optional.of(Objects.requireNonNull(policy, "policy"));
            return this;
        }

        /** Whether a claim that cannot isolate may serve in place (default: {@code mcpwire.isolation}, else {@link Isolation#PREFERRED}). */
        public Builder isolation(Isolation isolation) {
            this.isolation = Optional.of(Objects.requireNonNull(isolation, "isolation"));
            return this;
        }

        /** The settings the claim is taken with: these calls, over the settings given, else the system properties now. */
        McpwireSettings effectiveSettings() {
            // No lambdas on the first claim's path: each one's first call generates a class, at every start.
            McpwireSettings s = settings.isPresent() ? settings.get() : McpwireSettings.fromSystemProperties();
            if (stray.isPresent()) {
                s = s.withStrayOutput(stray.get());
            }
            if (stderr.isPresent()) {
                s = s.withStderr(stderr.get());
            }
            return isolation.isPresent() ? s.withIsolation(isolation.get()) : s;
        }

        /**
         * Uses this provider instead of choosing one, whatever {@code mcpwire.platform} says (see {@code docs/platforms.md}).
         *
         * @throws NullPointerException when {@code platform} is null (leave it out to have one chosen)
         */
        public Builder platform(PlatformDescriptors platform) {
            this.platform = Optional.of(Objects.requireNonNull(platform, "platform (leave it out to have one chosen)"));
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
            this.wakeTimeout = Objects.requireNonNull(timeout, "timeout");
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
