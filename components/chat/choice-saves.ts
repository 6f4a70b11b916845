// A chat's choices still being saved (its tools, its knowledge bases): anything that starts a turn —
// a message, an edit, Continue, a view's message — waits for them, so the turn uses what is ticked.
// Each picker chains its own saves and registers the newest here.

/** Per chat and picker, the newest save still running. */
const pending = new Map<string, Promise<unknown>>();

/** Registers `save` as the newest of `picker` in the chat; it leaves the list once answered. */
export function trackChoiceSave(chatId: string, picker: string, save: Promise<unknown>): void {
  const key = `${chatId}\u0000${picker}`;
  const done = save
    .catch(() => {})
    .finally(() => {
      if (pending.get(key) === done) pending.delete(key);
    });
  pending.set(key, done);
}

/** Resolves once every choice save of the chat started so far has been answered. */
export function choicesSaved(chatId: string): Promise<unknown> {
  const prefix = `${chatId}\u0000`;
  return Promise.all([...pending].filter(([key]) => key.startsWith(prefix)).map(([, save]) => save));
}
