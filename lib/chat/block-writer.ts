// Turns the parts of a streaming assistant message into block rows as they arrive. A block is
// written at once (in the next turn of the event loop) when it starts, changes status or ends; while
// only its text grows it is written at most once per throttle window (~150 ms), so a crash loses at
// most that window. Writes run one at a time in order; a write that is waiting always takes the
// newest state of its block.
import { Prisma, type PrismaClient } from "../db/generated/client";
import { blockToPart, partToBlock, type BlockFields, type ParleyPart, type StoredBlock } from "./parts";

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
  sig: string;
  status?: string;
  dirty: boolean;
  urgent: boolean;
  lastWriteAt: number;
};

export type BlockWriterStats = { writes: number };

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
  opts: { throttleMs?: number; /** Blocks already stored when an answer continues (after approvals). */ existing?: (StoredBlock & { id: string })[] } = {},
) {
  const throttleMs = opts.throttleMs ?? 150;
  const slots: Slot[] = (opts.existing ?? []).map((b) => {
    const part = blockToPart(b);
    return { id: b.id, part, sig: signature(part), status: statusOf(part), dirty: false, urgent: false, lastWriteAt: 0 };
  });
  const stats: BlockWriterStats = { writes: 0 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: unknown;

  async function writeSlot(index: number, slot: Slot) {
    const fields: BlockFields = partToBlock(slot.part!);
    const row = blockRow(fields);
    const now = new Date();
    const finished = fields.kind === "tool" && ["output-available", "output-error", "output-denied"].includes(fields.status);
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
    stats.writes++;
  }

  async function drain(force: boolean) {
    do {
      again = false;
      let wait = Infinity;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (!slot.dirty) continue;
        const due = slot.lastWriteAt + throttleMs - Date.now();
        if (!force && !slot.urgent && due > 0) {
          wait = Math.min(wait, due);
          continue;
        }
        slot.dirty = false;
        slot.urgent = false;
        slot.lastWriteAt = Date.now();
        await writeSlot(i, slot);
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
        console.error(`[block-writer] message ${messageId}:`, err);
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    stats,
    /** Takes the message's current parts (a snapshot after each chunk). */
    update(parts: ParleyPart[]) {
      let urgent = false;
      let changed = false;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        const slot = (slots[i] ??= { sig: "", dirty: false, urgent: false, lastWriteAt: 0 });
        const sig = signature(part);
        if (sig === slot.sig) continue;
        const status = statusOf(part);
        if (!slot.id && !slot.dirty) slot.urgent = true; // a new block
        if (slot.status !== undefined && slot.status !== status) slot.urgent = true;
        slot.sig = sig;
        slot.status = status;
        slot.part = part;
        slot.dirty = true;
        changed = true;
        urgent ||= slot.urgent;
      }
      if (changed) {
        if (urgent) void kick();
        else if (!timer && !running) void kick();
      }
    },
    /** Writes everything still pending; rejects if any write failed. */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (running) await running;
      await kick(true);
      if (failure) throw failure;
    },
  };
}

export type BlockWriter = ReturnType<typeof createBlockWriter>;
