// vitest setup for the files that share a worker process (vitest.config.mts, project "unit"): what a test
// file sets in process.env lasts until that file ends, as it would in a process of its own. Modules are
// shared between those files (that is what makes them cheap); a file that replaces modules (vi.mock) runs
// in a process of its own instead.
import { afterAll } from "vitest";

const atStart = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in atStart)) delete process.env[name];
  Object.assign(process.env, atStart);
});
