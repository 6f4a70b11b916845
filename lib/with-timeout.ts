// A promise that fails when another has not settled in time (the other one is left to run its course).

/** `p`, or an Error "no answer in <ms> ms" once `ms` have passed first. The timer never keeps the process alive. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
