// Drives a Spring AI MCP stdio server (a runnable jar) twice and judges its wire:
//   1. with the TypeScript MCP SDK's client: initialize, list tools, call the printing tool, ping;
//   2. raw: a pipelined session whose stdin is closed at once, to see end of input handled.
// Every byte the server writes to stdout must be JSON-RPC, from start to exit; every request
// must be answered once; the process must exit with status 0 within 5 s of end of input.
//   node check.mjs JAR            exits 0 when every check passed
//   node check.mjs JAR --expect-dirty   exits 0 when the wire check fails (an application
//                                       without mcpwire), proving the check can fail
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [jar, mode] = process.argv.slice(2);
const expectDirty = mode === "--expect-dirty";
const results = [];
const check = (what, ok, detail) => results.push({ what, ok: Boolean(ok), detail });

/** The lines of stdout that are not JSON-RPC messages, quoted. */
function strayLines(bytes) {
  const text = bytes.toString("utf8");
  const lines = text.split("\n");
  const stray = [];
  lines.forEach((line, i) => {
    if (i === lines.length - 1 && line === "") return; // the newline after the last message
    try {
      const m = JSON.parse(line);
      if (m?.jsonrpc !== "2.0") stray.push(line);
    } catch {
      stray.push(line);
    }
  });
  return stray;
}

async function withTypeScriptClient() {
  // stdout is teed into a file, so that every byte the client saw can be judged afterwards.
  const dir = mkdtempSync(path.join(tmpdir(), "mcpwire-spring-"));
  const out = path.join(dir, "stdout");
  const transport = new StdioClientTransport({
    command: "sh",
    args: ["-c", 'java -jar "$0" | tee "$1"', jar, out],
    stderr: "pipe",
  });
  transport.stderr.on("data", () => {});
  const errors = [];
  transport.onerror = (e) => errors.push(String(e));
  const client = new Client({ name: "mcpwire-spring-check", version: "0.1.0" });
  client.onerror = (e) => errors.push(String(e));
  const timeout = { timeout: 60_000 };
  try {
    await client.connect(transport, timeout);
    check("TS client: initialize", client.getServerVersion()?.name === "spring-ai-example", JSON.stringify(client.getServerVersion()));
    const { tools } = await client.listTools(undefined, { timeout: 10_000 });
    check("TS client: listTools", tools.some((t) => t.name === "noisy"), tools.map((t) => t.name).join(", "));
    const echo = await client.callTool({ name: "noisy", arguments: { text: "over mcpwire" } }, undefined, { timeout: 10_000 });
    check("TS client: the printing tool answers", JSON.stringify(echo.content).includes("over mcpwire"), JSON.stringify(echo.content));
    await client.ping({ timeout: 10_000 });
    check("TS client: ping", true, "answered");
  } catch (e) {
    check("TS client: session", false, String(e?.message ?? e));
  } finally {
    await client.close().catch(() => {});
  }
  check("TS client: no transport or protocol errors", errors.length === 0, errors.join("; ").slice(0, 300) || "none");
  const stray = strayLines(readFileSync(out));
  check("TS client: every stdout byte is JSON-RPC", stray.length === 0,
    stray.length ? `${stray.length} stray line(s), first: ${JSON.stringify(stray[0].slice(0, 120))}` : "clean");
}

function rawSession() {
  return new Promise((resolve) => {
    const child = spawn("java", ["-jar", jar], { stdio: ["pipe", "pipe", "ignore"] });
    const chunks = [];
    let closedAt = 0;
    let initialized = false;
    const send = (m) => child.stdin.write(JSON.stringify(m) + "\n");
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.stdout.on("data", (c) => {
      chunks.push(c);
      if (!initialized && Buffer.concat(chunks).toString().includes('"id":1,')) {
        initialized = true;
        send({ jsonrpc: "2.0", method: "notifications/initialized" });
        for (let id = 2; id <= 6; id++) {
          send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "noisy", arguments: { text: `call ${id}` } } });
        }
        send({ jsonrpc: "2.0", id: 7, method: "ping" });
        child.stdin.end(); // end of input at once: the calls are still running
        closedAt = Date.now();
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(watchdog);
      const exitMillis = closedAt ? Date.now() - closedAt : -1;
      resolve({ bytes: Buffer.concat(chunks), code, signal, exitMillis });
    });
    send({ jsonrpc: "2.0", id: 1, method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  });
}

await withTypeScriptClient();
const raw = await rawSession();
const stray = strayLines(raw.bytes);
check("raw: every stdout byte is JSON-RPC, start to exit", stray.length === 0,
  stray.length ? `${stray.length} stray line(s), first: ${JSON.stringify(stray[0].slice(0, 120))}` : "clean");
const ids = raw.bytes.toString("utf8").split("\n").flatMap((l) => { try { return [JSON.parse(l).id]; } catch { return []; } });
const want = [1, 2, 3, 4, 5, 6, 7];
check("raw: every request answered once at end of input", want.every((id) => ids.filter((x) => x === id).length === 1),
  `answered ids: ${JSON.stringify(ids)}`);
check("raw: exit status 0", raw.code === 0, `code ${raw.code}, signal ${raw.signal}`);
check("raw: exit within 5 s of end of input", raw.exitMillis >= 0 && raw.exitMillis <= 5000, `${raw.exitMillis} ms`);

for (const r of results) {
  console.log(`${r.ok ? "pass" : "FAIL"}  ${r.what}: ${r.detail}`);
}
const wire = results.filter((r) => r.what.includes("every stdout byte"));
const ok = expectDirty ? wire.some((r) => !r.ok) : results.every((r) => r.ok);
console.log(expectDirty
  ? (ok ? `as expected, ${jar} fails the wire check` : `${jar} unexpectedly passes the wire check`)
  : (ok ? `${jar}: all checks passed` : `${jar}: some checks failed`));
process.exit(ok ? 0 : 1);
