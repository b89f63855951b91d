// Drives `./demo server` with a client nobody here wrote: the TypeScript MCP SDK's stdio client,
// which hands the server Unix sockets (not pipes) as its stdin and stdout. Exits 0 only when every
// check passed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const results = [];
const check = (what, ok, detail) => results.push({ what, ok: Boolean(ok), detail });

// Windows runs demo.cmd through cmd.exe (Node does not spawn a .cmd file without a shell).
const windows = process.platform === "win32";
const transport = new StdioClientTransport({
  command: windows ? "cmd.exe" : path.join(root, "demo"),
  args: windows ? ["/d", "/c", path.join(root, "demo.cmd"), "server"] : ["server"],
  cwd: root,
  stderr: "pipe",
});
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
  check("listTools", JSON.stringify(names) === JSON.stringify(["echo", "noisy", "payload"]), names.join(", "));

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
for (const stray of ["noisy: System.out.println from a tool", "noisy: child stdout"]) {
  check(`stray output on stderr: "${stray}"`, stderr.includes(stray), stderr.includes(stray) ? "yes" : stderr);
}
check("the server claimed its streams", /stdio claimed through \w+, isolated/.test(stderr),
  (stderr.match(/stdio claimed through [^\n]*/) ?? ["no claim line"])[0]);

for (const r of results) {
  console.log(`${r.ok ? "ok  " : "FAIL"} ${r.what.padEnd(52)} ${String(r.detail).slice(0, 100)}`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(failed === 0 ? "interop: PASS (TypeScript MCP SDK 1.32.2 client, Unix socket stdio)" : `interop: FAIL (${failed} checks)`);
process.exit(failed === 0 ? 0 : 1);
