package io.mcpwire.jsonrpc;

import java.util.Objects;

/**
 * Why a transport closed.
 *
 * @param reason  the kind of ending
 * @param cause   the failure behind {@link Reason#FAILED}, else null
 * @param dropped messages sent but not written because the grace period ran out (0 when none)
 */
public record TransportClosed(Reason reason, Throwable cause, int dropped) {

    /** The kinds of ending. */
    public enum Reason {
        /** The client closed its end (end of input); everything received was answered. */
        END_OF_INPUT,
        /** The server called {@code close()}. */
        CLOSED,
        /** Reading or writing failed (for example the client went away); see the cause. */
        FAILED,
        /**
         * The process that started the server exited while stdin stayed open (another process
         * still held its write end); ended as at end of input: everything received was answered.
         */
        HOST_EXITED
    }

    /** Validates the members. */
    public TransportClosed {
        Objects.requireNonNull(reason, "reason");
        if (dropped < 0) {
            throw new IllegalArgumentException("dropped < 0");
        }
    }
}
