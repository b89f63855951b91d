package io.mcpwire.stdio;

/**
 * Whether a claim that cannot isolate the wire may serve it in place. Chosen with
 * {@link StdioClaim.Builder#isolation} or {@code -Dmcpwire.isolation=preferred|required}.
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

    /** The system property that chooses it. */
    public static final String PROPERTY = "mcpwire.isolation";

    /** What {@code -Dmcpwire.isolation} says; {@link #PREFERRED} when unset. */
    public static Isolation fromSystemProperty() {
        String value = System.getProperty(PROPERTY, "").trim();
        return switch (value) {
            case "", "preferred" -> PREFERRED;
            case "required" -> REQUIRED;
            default -> throw new IllegalArgumentException("-D" + PROPERTY + "=" + value
                    + ": expected preferred or required");
        };
    }
}
