// What `npm start` tells an operator about the Node version's cost per streamed chunk. Next.js keeps
// each request's context in AsyncLocalStorage. Before Node 24 that runs on async hooks, and every
// promise pays for it: about half the CPU of each streamed chunk (npm run bench). Node 24 keeps the
// context in AsyncContextFrame and promises pay nothing for it. Node 22 does the same when started
// with --experimental-async-context-frame.

const FLAG = "--experimental-async-context-frame";

/** The note for this Node (version and flags), or undefined when its async context costs nothing per promise. */
export function asyncContextNote(version = process.versions.node, flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ")) {
  const major = Number(version.split(".")[0]);
  if (major >= 24 || (major >= 22 && flags.includes(FLAG))) return undefined;
  const advice = major === 22 ? `Use Node 24, or start with NODE_OPTIONS=${FLAG}.` : "Use Node 24.";
  return `[parley] Node ${version}: streaming answers costs about twice the server CPU it does on Node 24 (README, "Performance"). ${advice}`;
}
