// Liveness answers 200 without the database: with PostgreSQL unreachable, /api/health says 503 (the
// instance is not ready) while /api/health/live still says the process is alive, so an orchestrator
// takes the instance out of rotation instead of restarting it.
import { afterEach, describe, expect, it } from "vitest";
import { GET as live } from "./route";
import { GET as ready } from "../route";
import { shutdown } from "@/lib/startup";

describe("GET /api/health/live", () => {
  afterEach(() => shutdown());

  it("answers 200 with the version while the database does not answer", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/nothing";
    try {
      const res = live();
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect((await ready()).status).toBe(503);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });
});
