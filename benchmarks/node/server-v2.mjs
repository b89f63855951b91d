// The demo's three tools on the TypeScript MCP SDK 2.4.0's dual-era stdio entry (serveStdio): a
// peer for benchmarks/run beside the 1.32.2 server. The harness speaks the legacy era to both.
import { McpServer, fromJsonSchema } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const object = (properties, required) => fromJsonSchema({ type: "object", properties, required });
serveStdio(() => {
  const server = new McpServer({ name: "typescript-sdk-2-peer", version: "2.4.0" }, { capabilities: { tools: {} } });
  server.registerTool("echo", { description: "Returns the text it is given.", inputSchema: object({ text: { type: "string" } }, ["text"]) },
    async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("noisy", { description: "Prints to stdout.", inputSchema: object({}, []) },
    async () => { console.log("noisy: console.log from a tool"); return { content: [{ type: "text", text: "printed" }] }; });
  server.registerTool("payload", { description: "Returns the given number of KiB of text.", inputSchema: object({ kib: { type: "integer" } }, ["kib"]) },
    async ({ kib }) => ({ content: [{ type: "text", text: "x".repeat(kib * 1024) }] }));
  return server;
});
