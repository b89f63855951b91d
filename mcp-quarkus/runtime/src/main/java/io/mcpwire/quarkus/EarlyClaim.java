package io.mcpwire.quarkus;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The claim taken before Quarkus starts its logging, held until the session is served over it.
 * Static: the recorder's two steps run on recorder objects of their own.
 */
final class EarlyClaim {
    private static final AtomicReference<StdioClaim> HELD = new AtomicReference<>();

    private EarlyClaim() {
    }

    /** Claims the standard streams now, unless a claim taken earlier is still held. */
    static void claim(McpwireSettings settings) {
        if (HELD.get() == null) {
            HELD.set(StdioClaim.builder().settings(settings).acquire());
        }
    }

    /** The claim taken early, handed over once; empty when none was taken. */
    static Optional<StdioClaim> take() {
        return Optional.ofNullable(HELD.getAndSet(null));
    }
}
