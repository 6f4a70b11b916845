// Starts the production build for e2e on a fresh data directory (e2e/.data), so every run begins
// at first-run setup. Run `next build` first (npm run test:e2e does).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve("e2e/.data");
fs.rmSync(dir, { recursive: true, force: true });
const env = { ...process.env, PARLEY_DATA_DIR: dir };
delete env.DATABASE_URL;
delete env.PARLEY_SECRET_KEY;
const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", process.env.PORT || "3210"], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
