import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const UNIT = ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts", "test/**/*.test.ts"];

// Files that replace modules, globals, the environment or the clock for their tests (vi.mock, vi.stubGlobal,
// vi.stubEnv, fake timers) each run in a process of their own, as vitest runs every file by default; the
// rest share processes (project "unit" below). Found by reading the files, so a new one is never missed.
const OWN_PROCESS_USE = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|resetModules)\(/;
const OWN_PROCESS = fs
  .globSync(UNIT)
  .filter((file) => OWN_PROCESS_USE.test(fs.readFileSync(file, "utf8")))
  .map((file) => file.replaceAll("[", "[[]"));

// The tests of MCP tools in chats and of members' OAuth connections, run once more against the
// 2026-07-28 test servers (on the SDK v2 server package) in place of the 2025-11-25 ones
// (test/support/test-servers.ts, mcp-auth-server.ts).
const MCP_ON_BOTH_REVISIONS = [
  "lib/mcp-chat/elicitations.test.ts",
  "lib/mcp-chat/mcp-apps.test.ts",
  "lib/mcp-chat/mcp-catalog.test.ts",
  "lib/turn/mcp-content.test.ts",
  "lib/approvals/team-approvals.test.ts",
  "lib/tools/tool-set.test.ts",
  "lib/identity/mcp-connect.test.ts",
  "lib/identity/mcp-token-lifecycle.test.ts",
  "app/api/chat/[[]id]/app/route.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests each open their own PGlite or PostgreSQL database; files run in parallel.
    pool: "forks",
    // Two files at once even on two cores (vitest's default there is one): most of a file's time is
    // spent waiting on databases, model and MCP servers. Not three: on a 2-core machine with PostgreSQL
    // and Redis the whole run took 361 s with three against 364 s with two (November 2026).
    maxWorkers: 2,
    // Migrates one database per driver once; each test file copies it (test/support/global-setup.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // No knowledge indexer in the background of start-up: tests that add documents see them as they
    // left them, and the indexer's tests run it themselves (lib/knowledge/indexer.test.ts).
    env: { PARLEY_KNOWLEDGE_INDEXER: "0" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: [...configDefaults.exclude, ...OWN_PROCESS],
          // Files share their worker processes and the modules loaded in them: a process of its own for
          // each file cost the suite 873 CPU-seconds against 534 shared (docs/testing.md). Each file's
          // environment is still its own (test/support/file-scope.ts).
          isolate: false,
          setupFiles: ["test/support/file-scope.ts"],
        },
      },
      { extends: true, test: { name: "own-process", include: OWN_PROCESS } },
      // Isolated: test/support/test-servers.ts reads the revision when it is loaded.
      { extends: true, test: { name: "mcp-2026-07-28", include: MCP_ON_BOTH_REVISIONS, env: { PARLEY_TEST_MCP_REVISION: "2026-07-28" } } },
    ],
  },
});
