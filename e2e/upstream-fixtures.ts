// The scripted upstream's fixture files, in one list: the Playwright config loads them at start, and a
// spec that puts fixtures of its own in front restores exactly these afterwards (a spec that left out
// one file once made every later "Endings: …" prompt fall through to the catch-all). chat-list.json
// comes first: its fixtures for the title call (recognised by its system message) answer every
// chat's title call before any prompt's fixture could; chat.json's catch-all stays last.
import fs from "node:fs";

export const UPSTREAM_FIXTURE_FILES = [
  "e2e/fixtures/chat-list.json",
  "e2e/fixtures/mcp.json",
  "e2e/fixtures/mcpauth.json",
  "e2e/fixtures/turn-endings.json",
  "e2e/fixtures/everyday-chat.json",
  "e2e/fixtures/accounts.json",
  "e2e/fixtures/usage.json",
  "e2e/fixtures/everyday.json",
  "e2e/fixtures/approvals.json",
  "e2e/fixtures/sharing.json",
  "e2e/fixtures/projects.json",
  "e2e/fixtures/new-chat.json",
  "e2e/fixtures/first-hour.json",
  "e2e/fixtures/first-hour-details.json",
  "e2e/fixtures/mcp-apps.json",
  "e2e/fixtures/mcp-extras.json",
  "e2e/fixtures/knowledge.json",
  "e2e/fixtures/chat.json",
];

/** The fixtures of every file, in load order (the catch-all of chat.json last). */
export function fileFixtures(): object[] {
  return UPSTREAM_FIXTURE_FILES.flatMap((f) => (JSON.parse(fs.readFileSync(f, "utf8")) as { fixtures: object[] }).fixtures);
}

/** Replaces the running upstream's fixtures with `first`, then the files' own (aimock's control API). */
export async function setUpstreamFixtures(upstream: string, first: object[] = []) {
  const cleared = await fetch(`${upstream}/__aimock/fixtures`, { method: "DELETE" });
  if (!cleared.ok) throw new Error(`the upstream refused to clear its fixtures (${cleared.status})`);
  const res = await fetch(`${upstream}/__aimock/fixtures`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fixtures: [...first, ...fileFixtures()] }),
  });
  if (!res.ok) throw new Error(`the upstream refused the fixtures (${res.status})`);
}
