/**
 * The mcpwire API: the JSON-RPC 2.0 message model and its codec, MCP protocol constants, and
 * the transport contract that server runtimes code against; it needs Jackson and nothing of
 * mcpwire's platform layer.
 */
module io.mcpwire.api {
    requires transitive tools.jackson.databind;

    exports io.mcpwire.jsonrpc;
    exports io.mcpwire.protocol;
}
