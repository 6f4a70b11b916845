// Our MCP test server as a process of a spec's own, on loopback: e2e/mcp-test-server.mjs (2025-11-25) or
// e2e/mcp-server-2026.mjs (2026-07-28, the same tools), started on `port` (0: one the OS picks),
// resolved with the process and its address once it listens (its first line on stdout).
import { spawn, type ChildProcess } from "node:child_process";

export async function startMcpTestServer(port = 0, revision: "2025-11-25" | "2026-07-28" = "2025-11-25"): Promise<{ process: ChildProcess; url: string }> {
  const script = revision === "2026-07-28" ? "e2e/mcp-server-2026.mjs" : "e2e/mcp-test-server.mjs";
  const child = spawn(process.execPath, [script, "--port", String(port), "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the MCP test server did not start")), 15_000);
    child.stdout!.on("data", (d: Buffer) => {
      const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(d.toString());
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
  });
  return { process: child, url };
}
