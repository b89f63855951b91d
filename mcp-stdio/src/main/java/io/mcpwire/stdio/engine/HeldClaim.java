package io.mcpwire.stdio.engine;

import io.mcpwire.stdio.ClaimState;
import io.mcpwire.stdio.Wire;
import io.mcpwire.platform.ProcessExits;
import java.util.Optional;

/**
 * The wire of a claim of the standard streams: isolated through a provider ({@link ProviderClaim})
 * or, without one, served in place ({@link InPlaceClaim}). What {@code StdioClaim} reports.
 */
public interface HeldClaim extends Wire {

    /** The state of {@code fd}'s claim; empty when {@code fd} was not claimed. */
    Optional<ClaimState> state(int fd);

    /** Whether every claimed stream of fd 0 and fd 1 is served from a private descriptor or absent; fd 2 does not count. */
    boolean isIsolated();

    /** Whether fd 2 is the wire too, and so claimed with fd 1. */
    boolean stderrIsWire();

    /** The provider's name, or {@code "none"}. */
    String platformName();

    /** How the provider waits for other processes' exits; empty without a provider or where it cannot. */
    Optional<ProcessExits> processExits();

    /** Whether every claimed stream has been put back. */
    boolean isReleased();
}
