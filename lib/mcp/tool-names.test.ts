// Tool names given to the model: valid for every provider, unique, stable, and mapped back exactly.
import { describe, expect, it } from "vitest";
import { namespaceTools, TOOL_NAME_PATTERN, type ToolRef } from "./tool-names";

const ref = (serverId: string, serverName: string, toolName: string): ToolRef => ({ serverId, serverName, toolName });

describe("namespaceTools", () => {
  it("gives readable server__tool names to ordinary tools", () => {
    const names = namespaceTools([ref("s1", "everything", "echo"), ref("s1", "everything", "get-sum")]);
    expect([...names.keys()].sort()).toEqual(["everything__echo", "everything__get-sum"]);
    expect(names.get("everything__echo")).toEqual(ref("s1", "everything", "echo"));
  });

  it("keeps every name within 64 characters of [a-zA-Z0-9_-] and maps each back to its exact tool", () => {
    const refs = [
      ref("s1", "Wiki Search (prod) ✨", "search.pages"),
      ref("s1", "Wiki Search (prod) ✨", "search_pages"), // same slug as the one above
      ref("s2", "Wiki Search (prod) ✨!", "search.pages"), // another server, same slugs
      ref("s3", "a".repeat(80), "b".repeat(90)),
      ref("s3", "a".repeat(80), "b".repeat(89) + "c"),
      ref("s4", "日本語サーバー", "検索"),
      ref("s5", "x", "tool with spaces/and:colons"),
    ];
    const names = namespaceTools(refs);
    expect(names.size).toBe(refs.length);
    for (const [name, back] of names) {
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(refs).toContainEqual(back);
    }
    expect(new Set([...names.values()].map((r) => `${r.serverId}/${r.toolName}`)).size).toBe(refs.length);
  });

  it("is deterministic whatever the order of the tools", () => {
    const refs = [ref("s1", "one", "a.b"), ref("s1", "one", "a_b"), ref("s2", "two", "t")];
    const a = [...namespaceTools(refs)].sort();
    const b = [...namespaceTools([...refs].reverse())].sort();
    expect(a).toEqual(b);
  });
});
