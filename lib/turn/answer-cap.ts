// The most an answer may write: text, reasoning and tool-call input of one turn together, at most
// PARLEY_MAX_ANSWER_CHARS characters. The delta that crosses the limit is cut, a notice says so
// ("AnswerTruncated"), later deltas are dropped, and the turn is stopped (a runaway or hostile model
// must not stream megabytes into the store and every reader's page). It is a function over the
// chunks of one step of the turn's stream stage (turn-stream.ts), not a stream stage of its own:
// every stage costs promises per chunk.
import type { UIMessageChunk } from "ai";
import type { NoticeData, ParleyMetadata } from "../messages/message-types";

type Chunk = UIMessageChunk<ParleyMetadata, { notice: NoticeData }>;

/** Applied to the chunks the stage is about to send; returns them (the same array when untouched). */
export type AnswerCap = <C extends { type: string }>(chunks: C[]) => C[];

/** The counted chunks and the field holding their characters. */
const COUNTED = new Map([
  ["text-delta", "delta"],
  ["reasoning-delta", "delta"],
  ["tool-input-delta", "inputTextDelta"],
]);
const lengthOf = (c: { type: string }) => ((c as Record<string, unknown>)[COUNTED.get(c.type)!] as string | undefined)?.length ?? 0;

/** The notice at the point where an answer was cut. */
function truncatedNotice(maxChars: number): NoticeData {
  return {
    code: "AnswerTruncated",
    message: `This answer was cut at ${maxChars.toLocaleString("en")} characters, the most this server keeps of one answer; the rest was not shown or stored, and the model was stopped.`,
  };
}

/**
 * A cap for one turn. `onLimit` is called once, when the limit is reached (the turn stops the model
 * there); the "Stopped." notice that stopping produces is left out, since the cut's notice says why.
 */
export function answerCap(maxChars: number, onLimit?: () => void): AnswerCap {
  let used = 0;
  let cut = false;
  return <C extends { type: string }>(chunks: C[]): C[] => {
    if (!cut) {
      let total = used;
      for (const c of chunks) if (COUNTED.has(c.type)) total += lengthOf(c);
      if (total <= maxChars) {
        used = total;
        return chunks;
      }
    }
    const out: C[] = [];
    for (const c of chunks) {
      const chunk = c as unknown as Chunk;
      if (cut) {
        if (COUNTED.has(chunk.type)) continue;
        if (chunk.type === "data-notice" && chunk.data.code === "Stopped") continue;
        out.push(c);
        continue;
      }
      if (!COUNTED.has(chunk.type)) {
        out.push(c);
        continue;
      }
      const field = COUNTED.get(chunk.type)!;
      const delta = ((c as Record<string, unknown>)[field] as string | undefined) ?? "";
      if (used + delta.length <= maxChars) {
        used += delta.length;
        out.push(c);
        continue;
      }
      const room = maxChars - used;
      // Never half a surrogate pair.
      const kept = delta.slice(0, room > 0 && /[\uD800-\uDBFF]/.test(delta[room - 1]) ? room - 1 : room);
      used = maxChars;
      cut = true;
      if (kept) out.push({ ...c, [field]: kept });
      out.push({ type: "data-notice", data: truncatedNotice(maxChars) } satisfies Chunk as unknown as C);
      onLimit?.();
    }
    return out;
  };
}
