package org.springframework.ai.mcp.server.common.autoconfigure;

/**
 * Stands in for Spring AI's MCP server auto-configuration, which the starter only looks for by
 * name: with it on the class path the application counts as a Spring AI MCP server. (The real
 * one is tested end to end in interop/spring, on both Spring AI lines.)
 */
public class McpServerAutoConfiguration {
}
