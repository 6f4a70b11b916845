// Types of scripts/async-context-note.mjs, for its test.
export declare function asyncContextNote(version?: string, flags?: string): string | undefined;
