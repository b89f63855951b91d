package io.mcpwire.stdio;

/**
 * Where one claimed standard stream stands (see {@code docs/claim.md}, "States", for the moves
 * between them, which the claim checks on every move).
 */
public enum ClaimState {
    /** Registered, nothing made yet: inside {@code acquire}, before the private duplicate. */
    PENDING,
    /** The private duplicate is made; the descriptor has not moved yet: inside {@code acquire}. */
    DUPLICATED,
    /**
     * Served in place, unisolated: the private duplicate could not be made, the diversion could
     * not be set up and was rolled back, or no platform provider is available. The claim is held.
     */
    IN_PLACE,
    /**
     * Absent: the parent process gave no such stream. The descriptor was closed when the process
     * started, or the JVM has since opened a file of its own there (its module image, a jar), so
     * the claim leaves it alone: a claimed input reads end of input at once, and a claimed output
     * fails every write with an error that says so. The claim is held.
     */
    ABSENT,
    /** Diverted: the wire is served from a private duplicate; the descriptor is diverted. */
    DIVERTED,
    /**
     * Rolled forward: diverting failed and so did the rollback, so the descriptor is not on the
     * wire; the wire is served from the private duplicate exactly as when diverted, and the
     * restore on release gets another chance.
     */
    ROLLED_FORWARD,
    /**
     * The restore on release failed: the descriptor is not back on the wire, so the claim stays
     * registered and every later claim of it is refused. Closing the claim again retries.
     */
    STUCK,
    /**
     * Kept diverted on purpose at the release: a guarded fd 2 whose stderr is not being read stays
     * on the stray-output drain, so that the process's last writes to it cannot block. The claim
     * stays registered, as when {@link #STUCK}; closing it again retries.
     */
    KEPT_DIVERTED,
    /** Released: the descriptor is back on the wire and the claim is free. */
    RELEASED
}
