// Types of scripts/check-links.mjs, for its test.
export type DeadLink = { file: string; line: number; target: string; reason: string };
export declare function githubSlug(heading: string): string;
export declare function anchorsOf(markdown: string): Set<string>;
export declare function markdownFiles(root: string): string[];
export declare function findDeadLinks(root: string, files?: string[]): DeadLink[];
