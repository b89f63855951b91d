// What the interoperability clients share: how they start `./demo server` (on Windows demo.cmd
// through cmd.exe, since Node does not spawn a .cmd file without a shell), the checks they make of
// its stderr, and the report they print.
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const windows = process.platform === "win32";

/** The stdio parameters that start the demo server, with stderr piped for the checks. */
export const demoServer = {
  command: windows ? "cmd.exe" : path.join(root, "demo"),
  args: windows ? ["/d", "/c", path.join(root, "demo.cmd"), "server"] : ["server"],
  cwd: root,
  stderr: "pipe",
};

/** A list of checks, each passed or failed with what was seen. */
export class Checks {
  results = [];

  check(what, ok, detail) {
    this.results.push({ what, ok: Boolean(ok), detail });
  }

  /** The noisy tool's output went to stderr, and the server said it claimed its streams. */
  serverStderr(stderr, label = "") {
    for (const stray of ["noisy: System.out.println from a tool", "noisy: child stdout"]) {
      this.check(`${label}stray output on stderr: "${stray}"`, stderr.includes(stray), stderr.includes(stray) ? "yes" : stderr);
    }
    this.check(`${label}the server claimed its streams`, /stdio claimed through \w+, isolated/.test(stderr),
      (stderr.match(/stdio claimed through [^\n]*/) ?? ["no claim line"])[0]);
  }

  /** Prints every check and the verdict, and exits 0 only when all passed. */
  finish(passed) {
    for (const r of this.results) {
      console.log(`${r.ok ? "ok  " : "FAIL"} ${r.what.padEnd(60)} ${String(r.detail).slice(0, 100)}`);
    }
    const failed = this.results.filter((r) => !r.ok).length;
    console.log(failed === 0 ? `interop: PASS (${passed})` : `interop: FAIL (${failed} checks)`);
    process.exit(failed === 0 ? 0 : 1);
  }
}
