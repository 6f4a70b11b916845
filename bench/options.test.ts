// The bench's flags: defaults, --quick, scenario names and aliases, and bad values refused by name.
import { describe, expect, it } from "vitest";
import { parseOptions } from "./options";

describe("bench flags", () => {
  it("defaults to the full run the figures of docs/performance.md come from", () => {
    const o = parseOptions([])!;
    expect(o).toMatchObject({ runs: 8, chunks: 2000, concurrency: [10, 50, 200], burstChunks: 500, longMessages: 10_000, dbs: ["pglite", "postgresql"] });
    expect(o.only).toEqual(["stream", "bursts", "long", "search", "retrieval"]);
    expect(o).toMatchObject({ indexingChats: 20, indexingPages: 300 });
    expect(o.embedder).toBeUndefined();
    expect(o.json).toBe(false);
    expect(o.compare).toBeUndefined();
  });

  it("--quick shortens the run, and explicit flags still win", () => {
    const o = parseOptions(["--quick", "--runs", "5"])!;
    expect(o).toMatchObject({ runs: 5, chunks: 400, concurrency: [10], burstChunks: 100, longMessages: 200 });
  });

  it("reads scenario aliases, databases, compare and ports", () => {
    const o = parseOptions(["--only", "ttft,long-chat", "--db", "postgresql", "--compare", "main", "--rounds", "4", "--ports", "3340-3349", "--json"])!;
    expect(o.only).toEqual(["stream", "long"]);
    expect(o.dbs).toEqual(["postgresql"]);
    expect(o).toMatchObject({ compare: "main", rounds: 4, ports: [3340, 3349], json: true });
  });

  it("reads the knowledge scenarios' flags", () => {
    const o = parseOptions(["--only", "retrieval,indexing", "--embedder", "hashed", "--indexing-chats", "5", "--indexing-pages", "40"])!;
    expect(o.only).toEqual(["retrieval", "indexing"]);
    expect(o).toMatchObject({ embedder: "hashed", indexingChats: 5, indexingPages: 40 });
    expect(() => parseOptions(["--embedder", "neural"])).toThrow(/--embedder: unknown "neural"/);
  });

  it("--long-messages 0 skips the long chat; the deadline factor has a floor", () => {
    const o = parseOptions(["--long-messages", "0", "--deadline-factor", "1.1"])!;
    expect(o.longMessages).toBe(0);
    expect(o.deadlineFactor).toBe(1.3);
  });

  it("refuses bad values with the flag's name", () => {
    expect(() => parseOptions(["--runs", "abc"])).toThrow(/--runs/);
    expect(() => parseOptions(["--runs", "2.5"])).toThrow(/--runs/);
    expect(() => parseOptions(["--concurrency", "10,x"])).toThrow(/--concurrency/);
    expect(() => parseOptions(["--only", "everything"])).toThrow(/--only: unknown "everything"/);
    expect(() => parseOptions(["--db", "sqlite"])).toThrow(/--db/);
    expect(() => parseOptions(["--ports", "3349-3340"])).toThrow(/--ports/);
    expect(() => parseOptions(["--no-such-flag"])).toThrow();
  });

  it("--help asks for the help text", () => {
    expect(parseOptions(["--help"])).toBeUndefined();
  });
});
