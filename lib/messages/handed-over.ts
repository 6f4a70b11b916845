// An answer handed over by an instance that stops (stop-turns.ts) to another that goes on with it
// (continue-decided.ts): how it is stored, how long the other waits, and what pages are told.

/** The finish reason of a handed-over answer, until it goes on. */
export const HANDED_OVER_REASON = "handed-over";
/** How long the instance that takes a handed-over answer waits for the stopping one (or recovery) to store it as ended. */
export const HANDED_OVER_STORE_MS = 30_000;
/** What a handed-over answer's metadata says (message-types.ts): pages keep looking for it this long. */
export const HANDED_OVER = { withinMs: HANDED_OVER_STORE_MS } as const;
