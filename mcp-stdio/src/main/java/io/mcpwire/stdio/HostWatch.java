package io.mcpwire.stdio;

import java.util.Locale;

/**
 * Which processes a stdio session ends with, while its stdin may stay open (another process holds
 * its write end, so end of input never comes). Chosen with {@code mcpwire.host-watch} (see
 * {@code McpwireSettings}); see {@code docs/transport.md}, "Shutdown".
 */
public enum HostWatch {

    /**
     * The host: the parent, or, when the parent is a wrapper that waits for this process
     * ({@code sh -c}, a shell running a script, {@code cmd /c}, a {@code .cmd} launcher) and passes
     * the host's stdio through, the first ancestor above such wrappers; the wrappers between too.
     * A watched process that ends before the client has sent anything is a launcher (a double
     * fork, {@code nohup ... &}, a detaching {@code start}), not the host, and is passed over. The
     * default.
     */
    ANCESTORS,
    /** The parent process alone, as it was at the start (passed over too when it ends before the client has sent anything). */
    PARENT,
    /** None: only end of input, a failure or a close ends the session. */
    OFF;

    /** The setting that chooses it: {@value}. */
    public static final String SETTING = "mcpwire.host-watch";

    /**
     * What a setting says: {@code ancestors} (or blank), {@code parent}, {@code off}, in any case;
     * {@code true} and {@code false}, the switch's older values, mean {@code ancestors} and {@code off}.
     *
     * @throws IllegalArgumentException for anything else, naming the setting
     */
    public static HostWatch parse(String setting) {
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "", "ancestors", "true" -> ANCESTORS;
            case "parent" -> PARENT;
            case "off", "false" -> OFF;
            default -> throw new IllegalArgumentException(SETTING + "=" + setting.trim()
                    + ": expected ancestors, parent or off");
        };
    }
}
