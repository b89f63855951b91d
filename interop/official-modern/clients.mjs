// Drives the official SDK 2.2 modern example (examples/official-sdk-modern, a runnable jar) with the
// TypeScript SDK's clients, as hosts do:
//   2.4.0 pinned to 2026-07-28, and in auto mode (it probes with server/discover and stays modern):
//   list the tools and call each;
//   with `dual` (the legacy and modern servers on one connection) also 1.32.2, in the legacy era:
//   initialize, list the tools, call each.
// Every byte of stdout must be JSON-RPC, from start to exit (stdout is teed into a file and judged
// after), and each tool must answer. Exits 0 only when every check passed.
//   node clients.mjs JAR [dual]
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [jar, variant] = process.argv.slice(2);
const args = variant === "dual" ? ["dual"] : [];
const results = [];
const check = (what, ok, detail) => results.push({ what, ok: Boolean(ok), detail });
const TOOLS = { echo: { text: "over mcpwire" }, print: {}, child: {}, slow: {} };
const ANSWERS = { echo: "over mcpwire", print: "printed", child: "the child exited 0", slow: "slept 300 ms" };

function strayLines(bytes) {
  const lines = bytes.toString("utf8").split("\n");
  return lines.filter((line, i) => {
    if (i === lines.length - 1 && line === "") return false;
    try { return JSON.parse(line)?.jsonrpc !== "2.0"; } catch { return true; }
  });
}

function teed() {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "mcpwire-modern-")), "stdout");
  return { out, spawn: { command: "sh", args: ["-c", 'java -jar "$0" "$@" | tee "$TEE_OUT"', jar, ...args],
    env: { ...process.env, TEE_OUT: out }, stderr: "pipe" } };
}

async function session(label, client, transport, out, era) {
  transport.stderr?.on("data", () => {});
  const errors = [];
  transport.onerror = (e) => errors.push(String(e));
  client.onerror = (e) => errors.push(String(e));
  try {
    const started = Date.now();
    await client.connect(transport, { timeout: 30_000 });
    check(`${label}: connect`, client.getServerVersion()?.name === "official-sdk-modern",
      `${Date.now() - started} ms, ${JSON.stringify(client.getServerVersion())}`);
    if (client.getProtocolEra) {
      check(`${label}: ${era} era`, client.getProtocolEra() === era, client.getProtocolEra());
    }
    const { tools } = await client.listTools(undefined, { timeout: 10_000 });
    const names = tools.map((t) => t.name).sort();
    check(`${label}: listTools`, JSON.stringify(names) === JSON.stringify(Object.keys(TOOLS).sort()), names.join(", "));
    for (const [name, toolArgs] of Object.entries(TOOLS)) {
      const r = await client.callTool({ name, arguments: toolArgs }, undefined, { timeout: 10_000 });
      const text = r.content?.[0]?.text;
      check(`${label}: callTool ${name}`, text === ANSWERS[name] && !r.isError, JSON.stringify(text));
    }
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

for (const [label, mode] of [["TypeScript SDK 2.4.0, pinned to 2026-07-28", { pin: "2026-07-28" }],
                             ["TypeScript SDK 2.4.0, auto (probes with server/discover)", "auto"]]) {
  const t = teed();
  const client = new Client({ name: "mcpwire-modern-check", version: "0.1.0" },
    { versionNegotiation: { mode, probe: { timeoutMs: 3000 } } });
  await session(`${variant ?? "modern"}: ${label}`, client, new StdioClientTransport(t.spawn), t.out, "modern");
}
if (variant === "dual") {
  const t = teed();
  await session("dual: TypeScript SDK 1.32.2 (legacy)", new LegacyClient({ name: "mcpwire-modern-check", version: "0.1.0" }),
    new LegacyTransport(t.spawn), t.out, "legacy");
}

for (const r of results) {
  console.log(`${r.ok ? "pass" : "FAIL"}  ${r.what}: ${r.detail}`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
