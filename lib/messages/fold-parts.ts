// What the store's fold (message-fold.ts, tool-call-fold.ts) works with: a chunk of the UI message
// stream, a part of the message it builds, and where a chunk left the message (the part it changed in
// place, or the part it added).
import type { ParleyUIMessage } from "./message-types";

export type Part = ParleyUIMessage["parts"][number];
export type Chunk = Record<string, unknown> & { type: string };

/** Where a chunk left the message: the index of the part it changed (-1: none, e.g. metadata only). */
export type Folded = { changed: number };

/** The two ways a chunk changes the message's parts: one changed in place, or one added. */
export function foldParts(parts: Part[]) {
  return {
    changedAt: (part: object): Folded => ({ changed: parts.lastIndexOf(part as Part) }),
    pushed: (part: Part): Folded => {
      parts.push(part);
      return { changed: parts.length - 1 };
    },
  };
}
