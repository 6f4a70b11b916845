// Types of scripts/node-runtime.mjs, for its test.
export declare const REQUIRED_MAJOR: number;
export declare function nodeProblem(version?: string, platform?: string, arch?: string): string | undefined;
export declare function requireNode(problem?: string): void;
