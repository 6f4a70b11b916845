// Types of scripts/prune-production.mjs, for its test.
export type Lockfile = { packages?: Record<string, Record<string, unknown>> };
export declare function productionPackages(lock: Lockfile, without?: string[]): Set<string>;
export declare function unneededPackages(root: string, without?: string[]): string[];
