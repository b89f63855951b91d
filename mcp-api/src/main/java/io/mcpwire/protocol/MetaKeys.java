package io.mcpwire.protocol;

/** The {@code _meta} keys the modern era reserves, under the {@code io.modelcontextprotocol/} prefix. */
public final class MetaKeys {
    /** The member that holds a request's or result's metadata. */
    public static final String META = "_meta";
    /** In a request: the protocol revision it is spoken in. Required. */
    public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    /** In a request: the client's name and version. Recommended. */
    public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    /** In a request: the client's capabilities for this request alone. Required. */
    public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    /** In a result: the server's name and version. Recommended on every result. */
    public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    /** In a request: the log level the client wants messages at (deprecated in 2026-07-28). */
    public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";

    private MetaKeys() {
    }
}
