// Drives `./demo server` with a client nobody here wrote: the TypeScript MCP SDK's stdio client,
// which hands the server Unix sockets (not pipes) as its stdin and stdout. Exits 0 only when every
// check passed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Checks, demoServer } from "./demo-server.mjs";

const checks = new Checks();
const check = (what, ok, detail) => checks.check(what, ok, detail);
const transport = new StdioClientTransport(demoServer);
let stderr = "";
transport.stderr.on("data", (chunk) => { stderr += chunk.toString(); });
const errors = [];
transport.onerror = (e) => errors.push(String(e));

const client = new Client({ name: "mcpwire-interop", version: "0.1.0" });
client.onerror = (e) => errors.push(String(e));
try {
  await client.connect(transport);
  const server = client.getServerVersion();
  check("initialize", server?.name === "mcpwire-demo", `server ${server?.name} ${server?.version}`);

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check("listTools", JSON.stringify(names) === JSON.stringify(["echo", "noisy", "payload", "spill"]), names.join(", "));

  const text = "hello from the TypeScript SDK";
  const echo = await client.callTool({ name: "echo", arguments: { text } });
  check("callTool echo", echo.content?.[0]?.text === text && !echo.isError, JSON.stringify(echo.content?.[0]?.text));

  const noisy = await client.callTool({ name: "noisy", arguments: {} });
  const noisyText = noisy.content?.[0]?.text ?? "";
  check("callTool noisy", noisyText.startsWith("child exit code 0") && noisyText.endsWith("end of input"), noisyText);

  const payload = await client.callTool({ name: "payload", arguments: { kib: 1024 } });
  const length = payload.content?.[0]?.text?.length ?? -1;
  check("callTool payload 1024 KiB", length === 1024 * 1024, `${length} characters`);

  await client.ping();
  check("ping", true, "answered");
} catch (e) {
  check("session", false, String(e?.stack ?? e));
} finally {
  await client.close().catch((e) => errors.push(String(e)));
}

check("no transport or protocol errors", errors.length === 0, errors.length ? errors.join("; ") : "none");
checks.serverStderr(stderr);
checks.finish("TypeScript MCP SDK 1.32.2 client, Unix socket stdio");
