package io.mcpwire.stdio;

/**
 * A claim of a standard stream that another claim already holds. Nothing was changed: each
 * descriptor has at most one owner, and a claim whose restore failed keeps holding its
 * descriptor so that no later claim is handed the diversion as its wire.
 */
public final class ClaimRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private static final String[] STREAMS = {"stdin", "stdout", "stderr"};
    private final int descriptor;

    /** Creates the exception for {@code descriptor}, held as {@code holder} describes. */
    public ClaimRefusedException(int descriptor, String holder) {
        super("fd " + descriptor + " (" + STREAMS[descriptor] + ") is already claimed by "
                + holder + "; a standard stream has one owner at a time");
        this.descriptor = descriptor;
    }

    /** The descriptor that was refused. */
    public int descriptor() {
        return descriptor;
    }
}
