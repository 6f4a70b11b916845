// server-everything (a real MCP server) on loopback for the specs that need MCP tools.
import { spawn, type ChildProcess } from "node:child_process";

// One port per Playwright worker running at the same time (TEST_PARALLEL_INDEX), so two spec files can each run one.
export const MCP_PORT = Number(process.env.E2E_MCP_PORT || 4331) + Number(process.env.TEST_PARALLEL_INDEX || 0);
export const MCP_URL = `http://127.0.0.1:${MCP_PORT}/mcp`;
let everything: ChildProcess | undefined;

export async function startEverything(): Promise<void> {
  // It binds all interfaces; Parley reaches it on loopback. Its output is not printed.
  everything = spawn(process.execPath, ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "streamableHttp"], {
    env: { ...process.env, PORT: String(MCP_PORT) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start")), 15_000);
    everything!.stderr!.on("data", (d: Buffer) => {
      if (/listening on port/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

export async function stopEverything(): Promise<void> {
  const child = everything;
  everything = undefined;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
