// A value made once per process and kept on globalThis under a named symbol, because Next evaluates a
// module once per bundle (and again on dev reloads): the database, sign-in, start-up, the stream
// registry. A failed attempt is not kept, so the next call tries again.

export type ProcessOnce<T> = {
  /** The value, made on the first call (and again after a failure or forget()). */
  get(): Promise<T>;
  /** The value if a call made (or is making) it; nothing is made. */
  current(): Promise<T> | undefined;
  /** Drops the value, so the next get() makes a new one (tests switch databases; shutdown). */
  forget(): void;
};

/** The process-wide value under `Symbol.for(key)`, made by `make` on first use. */
export function processOnce<T>(key: string, make: () => Promise<T>): ProcessOnce<T> {
  const symbol = Symbol.for(key);
  const holder = globalThis as { [symbol]?: Promise<T> };
  return {
    get() {
      if (!holder[symbol]) {
        holder[symbol] = make().catch((err) => {
          delete holder[symbol];
          throw err;
        });
      }
      return holder[symbol];
    },
    current: () => holder[symbol],
    forget() {
      delete holder[symbol];
    },
  };
}
