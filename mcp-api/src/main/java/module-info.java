/**
 * The mcpwire API: the JSON-RPC 2.0 message model and its codec, MCP protocol
 * constants, the transport contract that server runtimes code against, and the
 * {@code PlatformDescriptors} SPI through which the stream claim reaches the operating
 * system's descriptor table.
 */
module io.mcpwire.api {
    requires transitive tools.jackson.databind;

    exports io.mcpwire.jsonrpc;
    exports io.mcpwire.protocol;
    exports io.mcpwire.transport;
    exports io.mcpwire.platform;
}
