package io.mcpwire.platform;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link PlatformDescriptors#probe()} found: the provider can run in this process, or it
 * cannot, and why.
 */
public sealed interface Probe {

    /** The provider can run here. */
    record Available() implements Probe {
    }

    /**
     * The provider cannot run here.
     *
     * @param reason for the warning that says isolation is off, such as {@code "not Windows"}
     * @param cause  what the attempt to load its native code threw, when it threw
     */
    record Unavailable(String reason, Optional<Throwable> cause) implements Probe {
        /** Validates the members. */
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(cause, "cause");
        }
    }

    /** The provider can run here. */
    static Probe available() {
        return new Available();
    }

    /** The provider cannot run here, for {@code reason}. */
    static Probe unavailable(String reason) {
        return new Unavailable(reason, Optional.empty());
    }

    /** The provider cannot run here, for {@code reason}: loading its native code threw {@code cause}. */
    static Probe unavailable(String reason, Throwable cause) {
        return new Unavailable(reason, Optional.of(cause));
    }
}
