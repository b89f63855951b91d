package io.mcpwire.platform.test;

/** What a {@link FakeProcess}'s fd 2 refers to at start. */
public enum StderrMode {
    /** A sink of its own, read with {@link FakeProcess#stderrText()} (the client's log). */
    SINK,
    /**
     * A pipe of 64 KiB that the host never reads, so that a write blocks once it is full, until
     * {@link FakeProcess#hostReadsStderr()}; what it read then shows in {@link FakeProcess#stderrText()}.
     */
    UNREAD_PIPE,
    /** Closed: the lowest free descriptor is then 2. */
    CLOSED,
    /**
     * A read-only file: what a JVM started with fd 2 closed has there, since it opens its
     * module image on the lowest free descriptor.
     */
    READ_ONLY_FILE,
    /** The same open file as fd 1, as after {@code 2>&1}: stderr is the wire. */
    SAME_AS_STDOUT,
    /**
     * fd 1 and fd 2 are one terminal (a person runs the server in a shell); the wire is then the
     * terminal, read with {@link FakeProcess#terminalText()}.
     */
    TERMINAL_WITH_STDOUT
}
