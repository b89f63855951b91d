/**
 * The Spring Boot starter: a Spring AI MCP server in stdio mode claims stdin and stdout before
 * Boot prints its banner or starts its logging, and serves its session over mcpwire's bridge.
 * Applications run it on the class path; the module is for those that do not.
 */
module io.mcpwire.spring {
    requires io.mcpwire.sdkbridge;
    requires spring.boot;
    requires spring.boot.autoconfigure;
    requires spring.context;
    requires spring.core;
    requires spring.beans;

    exports io.mcpwire.spring;
    opens io.mcpwire.spring to spring.core, spring.beans, spring.context;
}
