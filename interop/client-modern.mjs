// Drives `./demo server` in the modern era (2026-07-28) with the TypeScript SDK's 2.4.0 client, as
// a dual-era host does: it probes with server/discover and stays modern when the server answers
// it. A second session pins 2026-07-28 outright. Every stdout line the server writes must be one
// JSON-RPC message: the client reports anything else as an error. Exits 0 only when every check
// passed.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Checks, demoServer } from "./demo-server.mjs";

const checks = new Checks();
const check = (what, ok, detail) => checks.check(what, ok, detail);

async function session(label, mode) {
  const transport = new StdioClientTransport(demoServer);
  let stderr = "";
  transport.stderr.on("data", (chunk) => { stderr += chunk.toString(); });
  const errors = [];
  transport.onerror = (e) => errors.push(String(e));
  const client = new Client({ name: "mcpwire-interop-modern", version: "0.1.0" },
    { versionNegotiation: { mode, probe: { timeoutMs: 10000 } } });
  client.onerror = (e) => errors.push(String(e));
  try {
    const started = Date.now();
    await client.connect(transport);
    check(`${label}: connect`, true, `${Date.now() - started} ms`);
    check(`${label}: era`, client.getProtocolEra() === "modern", client.getProtocolEra());
    check(`${label}: protocol version`, client.getNegotiatedProtocolVersion() === "2026-07-28", client.getNegotiatedProtocolVersion());
    const server = client.getServerVersion();
    check(`${label}: server info from discover`, server?.name === "mcpwire-demo", `${server?.name} ${server?.version}`);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    check(`${label}: listTools`, JSON.stringify(names) === JSON.stringify(["echo", "noisy", "payload", "spill"]), names.join(", "));

    const text = "hello from the TypeScript SDK 2.4.0";
    const echo = await client.callTool({ name: "echo", arguments: { text } });
    check(`${label}: callTool echo`, echo.content?.[0]?.text === text && !echo.isError, JSON.stringify(echo.content?.[0]?.text));

    const noisy = await client.callTool({ name: "noisy", arguments: {} });
    const noisyText = noisy.content?.[0]?.text ?? "";
    check(`${label}: callTool noisy`, noisyText.startsWith("child exit code 0") && noisyText.endsWith("end of input"), noisyText);

    const payload = await client.callTool({ name: "payload", arguments: { kib: 1024 } });
    const length = payload.content?.[0]?.text?.length ?? -1;
    check(`${label}: callTool payload 1024 KiB`, length === 1024 * 1024, `${length} characters`);
  } catch (e) {
    check(`${label}: session`, false, String(e?.stack ?? e));
  } finally {
    await client.close().catch((e) => errors.push(String(e)));
  }
  check(`${label}: no transport or protocol errors`, errors.length === 0, errors.length ? errors.join("; ") : "none");
  checks.serverStderr(stderr, `${label}: `);
}

await session("auto", "auto");
await session("pinned", { pin: "2026-07-28" });

checks.finish("TypeScript MCP SDK 2.4.0 client, modern era, Unix socket stdio");
