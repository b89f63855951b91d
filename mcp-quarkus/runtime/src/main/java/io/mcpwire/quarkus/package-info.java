/**
 * Quarkus MCP stdio servers served over mcpwire: the extension's run-time part. A Quarkus MCP
 * application that adds {@code io.mcpwire:mcpwire-quarkus} has its standard streams claimed before
 * Quarkus' logging starts, and its stdio session read, framed, bounded and answered by mcpwire's
 * transport, with Quarkus MCP's own handler handling each message; see {@code docs/quarkus.md}.
 */
package io.mcpwire.quarkus;
