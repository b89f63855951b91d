package io.mcpwire.protocol;

import java.util.List;
import java.util.stream.Stream;

/** Model Context Protocol constants: protocol versions by era and the method names servers meet first. */
public final class McpProtocol {
    /** The newest protocol revision this SDK knows, of the modern era. */
    public static final String LATEST_VERSION = "2026-07-28";
    /** The newest legacy revision: what an {@code initialize} is answered with when the client's is unknown. */
    public static final String LATEST_LEGACY_VERSION = "2025-11-25";
    /** The modern revisions this SDK speaks (version in each request's {@code _meta}), newest first. */
    public static final List<String> MODERN_VERSIONS = List.of("2026-07-28");
    /** The legacy revisions this SDK speaks (version agreed by {@code initialize}), newest first. */
    public static final List<String> LEGACY_VERSIONS = List.of("2025-11-25", "2025-06-18");
    /** Every revision this SDK speaks, newest first. */
    public static final List<String> SUPPORTED_VERSIONS = Stream.concat(MODERN_VERSIONS.stream(), LEGACY_VERSIONS.stream()).toList();

    /** Legacy era: opens a session; the first request a legacy client sends. */
    public static final String INITIALIZE = "initialize";
    /** Legacy era: the client's notification that initialization completed. */
    public static final String INITIALIZED = "notifications/initialized";
    /** Legacy era: a liveness check, answered with an empty result. Removed in the modern era. */
    public static final String PING = "ping";
    /** Modern era: the server's versions, capabilities and identity; the stdio probe hosts send first. */
    public static final String SERVER_DISCOVER = "server/discover";
    /** Lists the server's tools. */
    public static final String TOOLS_LIST = "tools/list";
    /** Calls one tool. */
    public static final String TOOLS_CALL = "tools/call";
    /** Lists the server's prompts. */
    public static final String PROMPTS_LIST = "prompts/list";
    /** Lists the server's resources. */
    public static final String RESOURCES_LIST = "resources/list";
    /** Lists the server's resource templates. */
    public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";
    /** Reads one resource. */
    public static final String RESOURCES_READ = "resources/read";
    /** Cancels a request in flight. */
    public static final String CANCELLED = "notifications/cancelled";

    private McpProtocol() {
    }

    /**
     * The version a server answers to a client's {@code initialize}: the client's own when it is a
     * legacy revision this SDK supports, else the newest legacy one (the client then decides).
     */
    public static String negotiate(String requested) {
        return LEGACY_VERSIONS.contains(requested) ? requested : LATEST_LEGACY_VERSION;
    }
}
