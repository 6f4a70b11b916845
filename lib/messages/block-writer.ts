// Turns the parts of a streaming assistant message into block rows as they arrive. A block is
// written at once (in the next turn of the event loop) when it starts, changes status or ends; while
// only its text grows it is written at most once per throttle window (~150 ms), so a crash loses at
// most that window. Writes run one at a time in order; a write that is waiting always takes the
// newest state of its block. A tool block moves only as tool-states.ts allows (a final block never
// changes again). A failed write is retried with backoff while the answer streams (the database may
// be back a moment later); after `retry.attempts` failures in a row the writer gives up, and `flush`
// rejects, so the turn can say the answer was not saved.
import { Prisma, type PrismaClient } from "../db/generated/client";
import type { BlockFields, StoredBlock } from "./block-storage";
import type { ParleyPart } from "./message-types";
import { blockToPart, partToBlock } from "./parts";
import { canMove, FINAL_STATES, isToolPart, toolStateOf, type ToolState } from "./tool-states";

/** How failed writes are retried: `attempts` in a row, waiting `firstMs`, doubling up to `maxMs`. */
export type RetryPolicy = { attempts: number; firstMs: number; maxMs: number };
/** About 12 s of retries in all: a database restarting or failing over comes back within it. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, firstMs: 100, maxMs: 3_200 };

export const retryDelay = (policy: RetryPolicy, failures: number) => Math.min(policy.maxMs, policy.firstMs * 2 ** (failures - 1));

const JSON_FIELDS = ["data", "input", "output", "providerMetadata", "extras"] as const;

/** Block fields as Prisma wants them: an absent JSON value is SQL NULL. */
export function blockRow(fields: BlockFields): Omit<Prisma.BlockUncheckedCreateInput, "messageId" | "ordinal"> {
  const row: Record<string, unknown> = { ...fields };
  for (const k of JSON_FIELDS) if (row[k] === null || row[k] === undefined) row[k] = Prisma.DbNull;
  return row as Omit<Prisma.BlockUncheckedCreateInput, "messageId" | "ordinal">;
}

type Slot = {
  id?: string;
  part?: ParleyPart;
  /** The tool state last accepted for this block (tool blocks only). */
  tool?: { state: ToolState; preliminary: boolean };
  sig: string;
  /** Every column but the text, as last written: a block whose text alone grew writes its text alone. */
  writtenRest?: string;
  status?: string;
  dirty: boolean;
  urgent: boolean;
  lastWriteAt: number;
};

type BlockWriterStats = { writes: number; failures: number };

const toolOf = (part: ParleyPart) =>
  isToolPart(part)
    ? { state: toolStateOf(part as { type: string; state?: string }), preliminary: (part as { preliminary?: boolean }).preliminary === true }
    : undefined;

/** Cheap change detection: text grows by appending, so its length and state tell whether it changed. */
function signature(part: ParleyPart): string {
  if (part.type === "text" || part.type === "reasoning") return `${part.type}:${part.state ?? ""}:${part.text.length}`;
  return JSON.stringify(part);
}

function statusOf(part: ParleyPart): string {
  return (part as { state?: string }).state ?? "";
}

export function createBlockWriter(
  prisma: PrismaClient,
  messageId: string,
  opts: {
    throttleMs?: number;
    /** Blocks already stored when an answer continues (after approvals). */
    existing?: (StoredBlock & { id: string })[];
    retry?: RetryPolicy;
  } = {},
) {
  const throttleMs = opts.throttleMs ?? 150;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const slots: Slot[] = (opts.existing ?? []).map((b) => {
    const part = blockToPart(b);
    return { id: b.id, part, sig: signature(part), status: statusOf(part), tool: toolOf(part), dirty: false, urgent: false, lastWriteAt: 0 };
  });
  const stats: BlockWriterStats = { writes: 0, failures: 0 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  /** Failed writes in a row; the writer gives up at `retry.attempts`. */
  let failures = 0;
  let failure: unknown;

  /** Writes the block's whole row: its first write, or one where more than its text changed. */
  async function writeRow(index: number, slot: Slot, fields: BlockFields) {
    const row = blockRow(fields);
    const now = new Date();
    const finished = fields.kind === "tool" && FINAL_STATES.includes(fields.status as ToolState) && !(slot.part as { preliminary?: boolean }).preliminary;
    if (!slot.id) {
      // A quick tool may have finished before its block was first written.
      const created = await prisma.block.create({
        data: { ...row, messageId, ordinal: index, startedAt: fields.kind === "tool" ? now : undefined, ...(finished ? { finishedAt: now } : {}) },
        select: { id: true },
      });
      slot.id = created.id;
    } else {
      // `select`: the row would otherwise come back whole, growing text and all, on every write.
      await prisma.block.update({ where: { id: slot.id }, data: { ...row, ...(finished ? { finishedAt: now } : {}) }, select: { id: true } });
    }
  }

  async function writeSlot(index: number, slot: Slot) {
    const fields: BlockFields = partToBlock(slot.part!);
    const rest = JSON.stringify({ ...fields, text: undefined });
    // Most writes of a streaming answer: its text grew, nothing else changed. The text alone costs
    // Prisma and PostgreSQL a fraction of the whole row (its JSON columns among it).
    if (slot.id && rest === slot.writtenRest) await prisma.block.update({ where: { id: slot.id }, data: { text: fields.text }, select: { id: true } });
    else {
      await writeRow(index, slot, fields);
      slot.writtenRest = rest;
    }
    stats.writes++;
  }

  async function drain(force: boolean) {
    do {
      again = false;
      let wait = Infinity;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (!slot?.dirty) continue;
        const due = slot.lastWriteAt + throttleMs - Date.now();
        if (!force && !slot.urgent && due > 0) {
          wait = Math.min(wait, due);
          continue;
        }
        slot.dirty = false;
        slot.urgent = false;
        slot.lastWriteAt = Date.now();
        try {
          await writeSlot(i, slot);
          failures = 0;
        } catch (err) {
          // Tried again (with the block's newest state) after a pause that doubles with each failure.
          slot.dirty = true;
          slot.urgent = true;
          stats.failures++;
          if (++failures >= retry.attempts) throw err;
          console.warn(`[block-writer] message ${messageId}: write failed (${failures} of ${retry.attempts}), retrying: ${(err as Error).message}`);
          await new Promise((r) => setTimeout(r, retryDelay(retry, failures)));
          again = true;
          break;
        }
      }
      if (wait !== Infinity && !timer) {
        timer = setTimeout(() => {
          timer = undefined;
          kick();
        }, wait);
      }
    } while (again);
  }

  function kick(force = false): Promise<void> {
    if (failure) return Promise.resolve(); // gave up: the turn says so, recovery marks the message
    if (running) {
      again = true;
      return running;
    }
    // The writes start once this turn of the event loop is over: the chunk that asked for them reaches
    // the browser first, and they take whatever else arrived in the same turn.
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => drain(force))
      .catch((err) => {
        failure ??= err;
        console.error(`[block-writer] message ${messageId}: gave up after ${failures} failed writes:`, err);
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    stats,
    /**
     * Takes the message's current parts; `only`: the index of the one part that changed (the others
     * are as last seen). Parts may change in place later (message-fold.ts): the writer keeps a copy.
     */
    update(parts: ParleyPart[], only?: number) {
      let urgent = false;
      let changed = false;
      const [from, to] = only === undefined ? [0, parts.length] : [only, Math.min(only + 1, parts.length)];
      for (let i = from; i < to; i++) {
        const part = parts[i];
        const slot = (slots[i] ??= { sig: "", dirty: false, urgent: false, lastWriteAt: 0 });
        const sig = signature(part);
        if (sig === slot.sig) continue;
        const tool = toolOf(part);
        // A tool block moves only forward (tool-states.ts): a final block keeps its state.
        if (tool && slot.tool && !canMove(slot.tool.state, tool.state, slot.tool.preliminary)) continue;
        slot.tool = tool;
        const status = statusOf(part);
        if (!slot.id && !slot.dirty) slot.urgent = true; // a new block
        if (slot.status !== undefined && slot.status !== status) slot.urgent = true;
        slot.sig = sig;
        slot.status = status;
        slot.part = { ...part };
        slot.dirty = true;
        changed = true;
        urgent ||= slot.urgent;
      }
      if (changed) {
        if (urgent) void kick();
        else if (!timer && !running) void kick();
      }
    },
    /** Writes everything still pending (retrying as above); rejects if the writer gave up. */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (running) await running;
      if (!failure) await kick(true);
      if (failure) throw failure;
    },
    /** Whether the writer gave up (what the turn streamed is not all stored). */
    get failed(): boolean {
      return failure !== undefined;
    },
  };
}
