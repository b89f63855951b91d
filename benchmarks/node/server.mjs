// The demo's three tools on the TypeScript MCP SDK's stdio server: a peer for benchmarks/run.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "typescript-sdk-peer", version: "1.32.2" });
server.registerTool("echo", { description: "Returns the text it is given.", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text }] }));
server.registerTool("noisy", { description: "Prints to stdout.", inputSchema: {} },
  async () => { console.log("noisy: console.log from a tool"); return { content: [{ type: "text", text: "printed" }] }; });
server.registerTool("payload", { description: "Returns the given number of KiB of text.", inputSchema: { kib: z.number().int() } },
  async ({ kib }) => ({ content: [{ type: "text", text: "x".repeat(kib * 1024) }] }));
await server.connect(new StdioServerTransport());
