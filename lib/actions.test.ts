// The entry checks of server actions: arguments of the wrong shape, NUL bytes, over-long fields and
// malformed ids are refused with a 400 state before an action's own code runs.
import { describe, expect, it } from "vitest";
import { checkForm, idFields, runAction } from "./actions";
import { AppError } from "./errors";

const form = (fields: Record<string, string | Blob>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe("checkForm", () => {
  it("passes an ordinary form", () => {
    expect(checkForm(form({ name: "Ada", serverId: "cm1abcdefghijklmnopqrstuv" }), idFields("serverId"))).toBeUndefined();
    expect(checkForm(form({ name: "Ada", serverId: "" }), idFields("serverId"))).toBeUndefined();
  });
  it("refuses what no form sends", () => {
    expect(checkForm("not a form")?.status).toBe(400);
    expect(checkForm({ name: "x" })?.status).toBe(400);
    expect(checkForm(undefined)?.status).toBe(400);
    expect(checkForm(form({ name: "a\0b" }))).toMatchObject({ status: 400, fields: { name: expect.stringContaining("NUL") } });
    expect(checkForm(form({ "na\0me": "x" }))?.status).toBe(400);
    expect(checkForm(form({ name: "x".repeat(100_001) }))?.status).toBe(400);
    expect(checkForm(form({ upload: new Blob(["x"]) }))?.status).toBe(400);
    expect(checkForm(form({ serverId: "'; drop table" }), idFields("serverId"))).toMatchObject({ status: 400, fields: { serverId: "Not a valid id." } });
  });
});

describe("runAction", () => {
  it("turns PostgreSQL's refusal of a NUL byte into a 400, not a 500", async () => {
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
    expect(await runAction(async () => Promise.reject(pgError))).toMatchObject({ ok: false, status: 400 });
    expect(await runAction(async () => Promise.reject(new AppError("NotFound", 404, "Not found.")))).toMatchObject({ status: 404 });
  });
});
