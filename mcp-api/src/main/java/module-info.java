/**
 * The mcpwire API: the JSON-RPC 2.0 message model and its codec, MCP protocol constants, and
 * the transport contract that server runtimes code against. The platform SPI it brings along
 * lives in its own module, {@code io.mcpwire.platform}.
 */
module io.mcpwire.api {
    requires transitive tools.jackson.databind;
    requires transitive io.mcpwire.platform;

    exports io.mcpwire.jsonrpc;
    exports io.mcpwire.protocol;
    exports io.mcpwire.transport;
}
