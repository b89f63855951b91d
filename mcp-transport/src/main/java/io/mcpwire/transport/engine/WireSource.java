package io.mcpwire.transport.engine;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.transport.engine.CallerStreams;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/** Where a transport's wire comes from, as its builder was told: one of three, never unset. */
public sealed interface WireSource {

    /** The claim to serve over, taken now with {@code settings} when the builder was not given one; empty for the caller's streams. */
    Optional<StdioClaim> claim(McpwireSettings settings);

    /** What the builder was given, for messages. */
    String describe();

    /** Whether the transport puts the wire back when it closes: false for a claim its owner keeps. */
    default boolean releaseOnClose() {
        return !(this instanceof GivenClaim claim && claim.kept());
    }

    /** Refuses a second source of the wire: a claim, streams, or a platform for the transport's own claim. */
    default void requireNoneGiven(String what) {
        if (!(this instanceof ClaimAtBuild own) || own.platform().isPresent()) {
            throw new IllegalStateException("give a claim, streams or a platform, only one of them (" + what
                    + " after " + describe() + ")");
        }
    }

    /** The caller's streams; only for {@link GivenStreams}. */
    default CallerStreams callerStreams() {
        throw new IllegalStateException("not the caller's streams: " + this);
    }

    /**
     * A claim the transport takes itself, when built.
     *
     * @param platform the provider to claim with; empty to choose one
     */
    record ClaimAtBuild(Optional<PlatformDescriptors> platform) implements WireSource {
        @Override
        public Optional<StdioClaim> claim(McpwireSettings settings) {
            StdioClaim.Builder claim = StdioClaim.builder().settings(settings);
            if (platform.isPresent()) {
                claim.platform(platform.get());
            }
            return Optional.of(claim.acquire());
        }

        @Override
        public String describe() {
            return platform.map(p -> "the platform " + p.name()).orElse("nothing");
        }
    }

    /**
     * A claim taken earlier, which the transport releases when it closes, unless its owner keeps it.
     *
     * @param given the claim
     * @param kept  whether the owner releases it itself, later
     */
    record GivenClaim(StdioClaim given, boolean kept) implements WireSource {
        @Override
        public Optional<StdioClaim> claim(McpwireSettings settings) {
            return Optional.of(given);
        }

        @Override
        public String describe() {
            return "a claim";
        }
    }

    /**
     * The caller's streams: nothing is claimed.
     *
     * @param input  what the client sends
     * @param output what reaches the client
     */
    record GivenStreams(InputStream input, OutputStream output) implements WireSource {
        @Override
        public Optional<StdioClaim> claim(McpwireSettings settings) {
            return Optional.empty();
        }

        @Override
        public String describe() {
            return "streams";
        }

        @Override
        public CallerStreams callerStreams() {
            return new CallerStreams(input, output);
        }
    }
}
