// What a turn holds while it runs (its slot, its budget's hold, its chat, its place among the turns
// this process runs) and frees in one place when it ends, however it ends: a failure before it
// streams, or the stored answer. Each thing is freed once, the last taken first, and one that fails
// to free does not keep the others held. What another part of the turn takes over (the store frees
// the chat of an answer it stores) is handed over and no longer freed here.
export class TurnHold {
  private held: { free: () => unknown }[] = [];
  private done = false;

  /** Holds something until `release`; returns a function that hands it over instead. Freed at once when already released. */
  take(free: () => unknown): () => void {
    const entry = { free };
    if (this.done) {
      freeQuietly(entry.free);
      return () => {};
    }
    this.held.push(entry);
    return () => {
      this.held = this.held.filter((e) => e !== entry);
    };
  }

  /** Frees everything still held, the last taken first; later calls do nothing. */
  release(): void {
    if (this.done) return;
    this.done = true;
    for (const entry of this.held.reverse()) freeQuietly(entry.free);
    this.held = [];
  }
}

function freeQuietly(free: () => unknown) {
  try {
    const result = free();
    if (result instanceof Promise) result.catch((err: unknown) => console.error("[turn] could not free what the turn held:", err));
  } catch (err) {
    console.error("[turn] could not free what the turn held:", err);
  }
}
