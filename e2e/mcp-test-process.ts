// e2e/mcp-test-server.mjs as a process of a spec's own, on loopback: started on `port` (0: one the OS
// picks), resolved with the process and its address once it listens (its first line on stdout).
import { spawn, type ChildProcess } from "node:child_process";

export async function startMcpTestServer(port = 0): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["e2e/mcp-test-server.mjs", "--port", String(port), "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "inherit"] });
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
