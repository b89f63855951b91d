// Drives an example server (a runnable jar) with the TypeScript SDK's clients, as hosts do:
//   1.32.2 (legacy era): initialize, list the tools, call each, ping;
//   2.4.0 in auto mode: it probes with server/discover, which a legacy server refuses, and must
//   fall back to initialize within a host's wait (3 s), then calls each tool.
// Every byte of stdout must be JSON-RPC, from start to exit (stdout is teed into a file and judged
// after), and each tool must answer as expected. Exits 0 only when every check passed.
//   node jar-clients.mjs JAR SERVER_NAME TOOLS
// TOOLS is JSON: each tool's name with the arguments to call it with and the text it answers,
//   {"echo": {"arguments": {"text": "hi"}, "answer": "hi"}, ...}
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [jar, serverName, toolsJson] = process.argv.slice(2);
const results = [];
const check = (what, ok, detail) => results.push({ what, ok: Boolean(ok), detail });
const TOOLS = JSON.parse(toolsJson);

function strayLines(bytes) {
  const lines = bytes.toString("utf8").split("\n");
  return lines.filter((line, i) => {
    if (i === lines.length - 1 && line === "") return false;
    try { return JSON.parse(line)?.jsonrpc !== "2.0"; } catch { return true; }
  });
}

function teed(label) {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "mcpwire-jar-")), "stdout");
  return { out, spawn: { command: "sh", args: ["-c", 'java -jar "$0" | tee "$1"', jar, out], stderr: "pipe" }, label };
}

async function session(label, client, transport, out) {
  transport.stderr?.on("data", () => {});
  const errors = [];
  transport.onerror = (e) => errors.push(String(e));
  client.onerror = (e) => errors.push(String(e));
  try {
    const started = Date.now();
    await client.connect(transport, { timeout: 30_000 });
    const millis = Date.now() - started;
    check(`${label}: connect`, client.getServerVersion()?.name === serverName, `${millis} ms, ${JSON.stringify(client.getServerVersion())}`);
    if (client.getProtocolEra) {
      check(`${label}: legacy era after the refused probe`, client.getProtocolEra() === "legacy", client.getProtocolEra());
    }
    const { tools } = await client.listTools(undefined, { timeout: 10_000 });
    const names = tools.map((t) => t.name).sort();
    check(`${label}: listTools`, JSON.stringify(names) === JSON.stringify(Object.keys(TOOLS).sort()), names.join(", "));
    for (const [name, { arguments: args, answer }] of Object.entries(TOOLS)) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 });
      const text = r.content?.[0]?.text;
      check(`${label}: callTool ${name}`, text === answer && !r.isError, JSON.stringify(text));
    }
    await client.ping({ timeout: 10_000 });
    check(`${label}: ping`, true, "answered");
    return millis;
  } catch (e) {
    check(`${label}: session`, false, String(e?.stack ?? e));
  } finally {
    await client.close().catch(() => {});
    check(`${label}: no transport or protocol errors`, errors.length === 0, errors.join("; ").slice(0, 300) || "none");
    const stray = strayLines(readFileSync(out));
    check(`${label}: every stdout byte is JSON-RPC`, stray.length === 0,
      stray.length ? `${stray.length} stray line(s), first: ${JSON.stringify(stray[0].slice(0, 120))}` : "clean");
  }
}

{
  const t = teed("TypeScript SDK 1.32.2");
  await session(t.label, new LegacyClient({ name: "mcpwire-jar-clients", version: "0.1.0" }), new LegacyTransport(t.spawn), t.out);
}
{
  const t = teed("TypeScript SDK 2.4.0 (auto: probe, then fall back)");
  const client = new Client({ name: "mcpwire-jar-clients", version: "0.1.0" },
    { versionNegotiation: { mode: "auto", probe: { timeoutMs: 3000 } } });
  await session(t.label, client, new StdioClientTransport(t.spawn), t.out);
}

for (const r of results) {
  console.log(`${r.ok ? "pass" : "FAIL"}  ${r.what}: ${r.detail}`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
