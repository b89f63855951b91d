package io.mcpwire.protocol;

import java.util.List;

/** Model Context Protocol constants: protocol versions and the method names servers meet first. */
public final class McpProtocol {
    /** The newest protocol revision this SDK knows. */
    public static final String LATEST_VERSION = "2025-11-25";
    /** The protocol revisions this SDK can speak, newest first. */
    public static final List<String> SUPPORTED_VERSIONS = List.of("2025-11-25", "2025-06-18");

    /** Opens a session; the first request a client sends. */
    public static final String INITIALIZE = "initialize";
    /** The client's notification that initialization completed. */
    public static final String INITIALIZED = "notifications/initialized";
    /** A liveness check, answered with an empty result. */
    public static final String PING = "ping";
    /** Lists the server's tools. */
    public static final String TOOLS_LIST = "tools/list";
    /** Calls one tool. */
    public static final String TOOLS_CALL = "tools/call";
    /** Cancels a request in flight. */
    public static final String CANCELLED = "notifications/cancelled";

    private McpProtocol() {
    }

    /**
     * The version a server answers to a client's {@code initialize}: the client's own when
     * this SDK supports it, else the newest this SDK supports (the client then decides).
     */
    public static String negotiate(String requested) {
        return SUPPORTED_VERSIONS.contains(requested) ? requested : LATEST_VERSION;
    }
}
