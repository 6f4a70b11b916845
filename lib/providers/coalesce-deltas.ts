// Merges the deltas of one text, reasoning or tool-input block that arrive together, in one turn of
// the event loop, into one part. On an idle server each delta goes on at once (in the same turn's
// check phase, well under a millisecond later); on a busy one, where many chats stream and several
// deltas of a chat wait in one socket read, every later stage (the AI SDK, the block writer, the
// event stream to the browser) handles one part instead of many, so the work per chat falls as the
// load rises instead of piling up behind. The text is the same either way.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";

type Delta = Extract<LanguageModelV3StreamPart, { type: "text-delta" | "reasoning-delta" | "tool-input-delta" }>;

function isDelta(part: LanguageModelV3StreamPart): part is Delta {
  return part.type === "text-delta" || part.type === "reasoning-delta" || part.type === "tool-input-delta";
}

const metadataOf = (d: Delta) => (d.providerMetadata ? JSON.stringify(d.providerMetadata) : "");


export type DeltaCoalescer = {
  /** Takes the next part of the stream, in order. */
  push(part: LanguageModelV3StreamPart): void;
  /** Sends the delta held back now (at the end of the stream). */
  flush(): void;
  /** Drops the delta held back (the stream was cancelled or failed). */
  discard(): void;
};

/** `emit` receives the parts in their order, with adjacent deltas of one block merged. */
export function deltaCoalescer(emit: (part: LanguageModelV3StreamPart) => void): DeltaCoalescer {
  let held: Delta | undefined;
  let heldMetadata = "";
  let scheduled: NodeJS.Immediate | undefined;

  function flush() {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (!held) return;
    const part = held;
    held = undefined;
    emit(part);
  }

  return {
    push(part) {
      if (!isDelta(part)) {
        flush();
        emit(part);
        return;
      }
      // The same block with the same provider metadata: one delta.
      if (held && held.type === part.type && held.id === part.id && heldMetadata === metadataOf(part)) {
        held = { ...held, delta: held.delta + part.delta };
        return;
      }
      flush();
      held = part;
      heldMetadata = metadataOf(part);
      scheduled = setImmediate(() => {
        scheduled = undefined;
        try {
          flush();
        } catch {
          /* the stream ended meanwhile (cancelled or failed): nothing left to send to */
        }
      });
    },
    flush,
    discard() {
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      held = undefined;
    },
  };
}
