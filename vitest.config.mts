import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts", "test/**/*.test.ts"],
        },
      },
      { extends: true, test: { name: "mcp-2026-07-28", include: MCP_ON_BOTH_REVISIONS, env: { PARLEY_TEST_MCP_REVISION: "2026-07-28" } } },
    ],
  },
});
