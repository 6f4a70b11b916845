// Types of scripts/source-hash.mjs, for next.config.ts.
export declare function sourceHash(root?: string): string;
