package io.mcpwire.transport.engine;

/**
 * The transport's logger, {@code io.mcpwire.transport}, looked up when it is first used rather than
 * when each class that logs is loaded: the first {@link System#getLogger} starts the logging back
 * end, some 10 ms of start-up, and a session that goes well logs nothing.
 */
public final class TransportLog {
    /** The logger; reading it the first time looks it up. */
    public static final System.Logger LOG = System.getLogger("io.mcpwire.transport");

    private TransportLog() {
    }
}
