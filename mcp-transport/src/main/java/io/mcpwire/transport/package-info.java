/**
 * The MCP stdio transport ({@link io.mcpwire.transport.StdioTransport}), served over the claim of the
 * standard streams ({@link io.mcpwire.stdio.StdioClaim}) or over streams its caller passes in.
 * Its threads, and the locks in the order they are taken, are tabled in the documentation of the
 * started session ({@code io.mcpwire.transport.engine.Session}); the claim's are in the package
 * {@code io.mcpwire.stdio}.
 */
package io.mcpwire.transport;
