package io.mcpwire.check;

/** When a byte on the server's stdout came, as a host would see the session. */
public enum Phase {
    /** Before the server answered {@code initialize}: what breaks a host's handshake. */
    BEFORE_INITIALIZE,
    /** During the session. */
    SESSION,
    /** After the checker closed the server's stdin (end of input). */
    AFTER_END_OF_INPUT
}
