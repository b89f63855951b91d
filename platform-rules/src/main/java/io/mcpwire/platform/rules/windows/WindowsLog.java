package io.mcpwire.platform.rules.windows;

/**
 * The Windows rules' logger, {@code io.mcpwire.platform.windows}, looked up on first use: the first
 * {@link System#getLogger} starts the logging back end, which a session that goes well never needs.
 */
final class WindowsLog {
    static final System.Logger LOG = System.getLogger("io.mcpwire.platform.windows");

    private WindowsLog() {
    }
}
