package io.mcpwire.stdio;

/**
 * Whether a claim that cannot isolate the wire may serve it in place. Chosen with
 * {@link StdioClaim.Builder#isolation} or {@code mcpwire.isolation=preferred|required} (see
 * {@code McpwireSettings}).
 */
public enum Isolation {

    /**
     * Isolate when possible; otherwise serve the streams in place and log why (the default): the
     * server works, unprotected from stray output.
     */
    PREFERRED,
    /**
     * Isolate, or fail: a claim that would serve a stream in place releases what it took and
     * throws {@link IsolationUnavailableException} saying why.
     */
    REQUIRED;

    /** The setting that chooses it: {@value}. */
    public static final String SETTING = "mcpwire.isolation";

    /**
     * What a setting says: {@code preferred} (or blank) or {@code required}, in any case.
     *
     * @throws IllegalArgumentException for anything else, naming the setting
     */
    public static Isolation parse(String setting) {
        return switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "", "preferred" -> PREFERRED;
            case "required" -> REQUIRED;
            default -> throw new IllegalArgumentException(SETTING + "=" + setting.trim()
                    + ": expected preferred or required");
        };
    }
}
