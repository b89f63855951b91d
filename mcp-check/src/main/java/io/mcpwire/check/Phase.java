package io.mcpwire.check;

/** When a byte on the server's stdout came, as a host would see the session. */
public enum Phase {
    /**
     * Before the session opened: before the server answered {@code initialize} (legacy) or the
     * {@code server/discover} probe (modern). What breaks a host's start.
     */
    BEFORE_INITIALIZE,
    /** During the session. */
    SESSION,
    /** After the checker closed the server's stdin (end of input). */
    AFTER_END_OF_INPUT
}
