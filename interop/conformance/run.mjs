// Runs the MCP conformance suite's server scenarios against the conformance server over two stdio
// transports, mcpwire's bridge and the official SDK's StdioServerTransportProvider, each behind a
// stdio-to-Streamable-HTTP gateway (the suite speaks HTTP). Prints a table per scenario and the line
// `conformance: mcpwire P/T, official stdio Q/T` over the scenarios that apply to stdio; exits non-zero
// when a result differs from expected-failures.yml.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, existsSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const node = process.execPath; // Node 22, from the node package (the suite needs it)
const bridge = path.join(root, "mcp-sdk-bridge/target");
const classPath = [path.join(bridge, "test-classes"), path.join(bridge, "classes"),
  readFileSync(path.join(bridge, "test-classpath.txt"), "utf8").trim()].join(path.delimiter);

// These scenarios test the HTTP layer, which here is the gateway's, not the server's transport.
const notForStdio = {
  "server-sse-multiple-streams": "SSE streams are HTTP; the gateway provides them",
  "server-sse-polling": "SSE polling is HTTP; the gateway provides it",
  "dns-rebinding-protection": "Host and Origin checks are HTTP; the gateway does not make them",
};

function waitForPort(port, deadline) {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => { socket.end(); resolve(); });
      socket.on("error", () => {
        if (Date.now() > deadline) reject(new Error(`nothing listens on port ${port}`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { out += d; });
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function suite(transport, port) {
  const java = `java --enable-native-access=ALL-UNNAMED -cp ${classPath} io.mcpwire.sdkbridge.ConformanceServer ${transport}`;
  const gateway = spawn(node, [path.join(here, "node_modules/supergateway/dist/index.js"), "--stdio", java,
    "--outputTransport", "streamableHttp", "--stateful", "--port", String(port), "--logLevel", "none"],
    { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await waitForPort(port, Date.now() + 30_000);
    const outDir = mkdtempSync(path.join(tmpdir(), `conformance-${transport}-`));
    const { out } = await run(node, [path.join(here, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
      "server", "--url", `http://localhost:${port}/mcp`, "-o", outDir]);
    const results = {};
    for (const dir of readdirSync(outDir)) {
      const file = path.join(outDir, dir, "checks.json");
      if (!existsSync(file)) continue;
      const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      const checks = JSON.parse(readFileSync(file, "utf8"));
      const failed = checks.filter((c) => c.status === "FAILURE");
      results[scenario] = { passed: failed.length === 0, why: failed.map((c) => `${c.id}: ${c.errorMessage ?? ""}`).join("; ") };
    }
    if (Object.keys(results).length === 0) throw new Error(`the suite produced no results:\n${out}`);
    return results;
  } finally {
    gateway.kill();
  }
}

function expected() {
  const text = readFileSync(path.join(here, "expected-failures.yml"), "utf8");
  const lists = {};
  let current = null;
  for (const line of text.split("\n")) {
    const key = line.match(/^(\w+):\s*(\[\])?\s*$/);
    if (key) { current = key[1]; lists[current] = new Set(); continue; }
    const item = line.match(/^\s+-\s+([\w-]+)/);
    if (item && current) lists[current].add(item[1]);
  }
  return lists;
}

const mcpwire = await suite("mcpwire", 18931);
const official = await suite("official", 18932);
const baseline = expected();
const scenarios = [...new Set([...Object.keys(mcpwire), ...Object.keys(official)])].sort();
const cell = (r, s) => (!r ? "missing" : r.passed ? "pass" : "FAIL");
console.log(`${"scenario".padEnd(34)}${"mcpwire".padEnd(10)}${"official stdio".padEnd(16)}note`);
const problems = [];
let applicable = 0, passM = 0, passO = 0;
for (const s of scenarios) {
  const m = mcpwire[s], o = official[s];
  const na = notForStdio[s];
  let note = na ? `n/a for stdio: ${na}` : "";
  if (!na) {
    applicable++;
    if (m?.passed) passM++;
    if (o?.passed) passO++;
    for (const [name, r] of [["mcpwire", m], ["official", o]]) {
      const expectedFail = baseline[name]?.has(s);
      if (!r?.passed && !expectedFail) problems.push(`${s} fails on ${name}: ${r?.why ?? "no result"}`);
      if (r?.passed && expectedFail) problems.push(`${s} passes on ${name} but is listed as an expected failure`);
    }
    if (o?.passed && !m?.passed) problems.push(`${s} passes on the official stdio transport but not on mcpwire`);
    if (!m?.passed || !o?.passed) note = [m, o].filter((r) => r && !r.passed).map((r) => r.why).join(" | ");
  }
  console.log(`${s.padEnd(34)}${(na ? "n/a" : cell(m)).padEnd(10)}${(na ? "n/a" : cell(o)).padEnd(16)}${note.slice(0, 160)}`);
}
console.log(`conformance: mcpwire ${passM}/${applicable}, official stdio ${passO}/${applicable}`);
if (problems.length) {
  console.error("conformance: unexpected results:\n  " + problems.join("\n  "));
  process.exit(1);
}
