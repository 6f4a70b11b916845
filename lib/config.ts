// Run-time settings read from the environment, in one place (the README lists each one).
import path from "node:path";

export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.env.PARLEY_DATA_DIR || "./data");
}

export type DatabaseKind = "pglite" | "postgresql";

export function databaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL?.trim();
  return url ? url : undefined;
}

export function databaseKind(): DatabaseKind {
  return databaseUrl() ? "postgresql" : "pglite";
}

/** Public URL of the app, when the operator sets one (required behind a proxy or on another host). */
export function publicUrl(): string | undefined {
  const url = (process.env.PARLEY_URL || process.env.BETTER_AUTH_URL)?.trim();
  return url ? url.replace(/\/+$/, "") : undefined;
}

export function appVersion(): string {
  return process.env.npm_package_version || "0.1.0";
}
