// The entry checks of server actions: arguments of the wrong shape, NUL bytes, over-long fields and
// malformed ids are refused with a 400 state before an action's own code runs; what an action throws
// becomes a state with a client's status, never a 500 for input the database refuses.
import { describe, expect, it } from "vitest";
import { checkForm, echoedValues, errorState, idFields } from "./actions";
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

describe("errorState", () => {
  it("turns PostgreSQL's refusal of a NUL byte into a 400, not a 500", () => {
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
    expect(errorState(pgError)).toMatchObject({ ok: false, status: 400 });
    expect(errorState(new AppError("NotFound", 404, "Not found."))).toMatchObject({ status: 404 });
  });
});

describe("echoedValues", () => {
  it("keeps what was typed, less passwords, React's entries and the secret fields", () => {
    const typed = form({ name: "Ada", newPassword: "hunter22", $ACTION_ID_1: "", apiKey: "sk-1" });
    expect(echoedValues(typed, ["apiKey"])).toEqual({ name: "Ada" });
  });
});
