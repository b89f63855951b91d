/**
 * The wire checker: starts any MCP stdio server, speaks MCP to it as a host does, and reports
 * whatever on its stdout is not JSON-RPC, answers missing or doubled, and how the process ends.
 * Run it as {@code java -jar mcpwire-check.jar -- COMMAND [ARGS...]}.
 */
module io.mcpwire.check {
    requires io.mcpwire.api;

    exports io.mcpwire.check;
}
