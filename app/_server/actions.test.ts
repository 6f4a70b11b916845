// defineAction's and defineArgsAction's entry, in its order: a malformed form is a 400 state (an
// argument of no known shape a 404) before anyone is asked who calls; a caller the role refuses gets
// the refusal and nothing runs; a rejected form echoes its fields but never a secret one; success
// revalidates, then redirects. The request (caller.ts, Next's headers and cache) is stubbed: no server.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { idFields } from "@/lib/actions";
import { Forbidden, Invalid } from "@/lib/errors";
import { idField } from "@/lib/validation";
import type { TeamContext } from "@/lib/teams/team-context";

const { caller, revalidatePath } = vi.hoisted(() => ({
  caller: { requireAdmin: vi.fn(), requireTeam: vi.fn(), requireUser: vi.fn(), requireInstanceAdmin: vi.fn() },
  revalidatePath: vi.fn(),
}));
vi.mock("./caller", () => caller);
vi.mock("next/cache", () => ({ revalidatePath }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

import { defineAction, defineArgsAction } from "./actions";

const admin: TeamContext = { user: { id: "u1", name: "Ada", email: "ada@example.com" }, team: { id: "t1", name: "T", role: "admin" }, teams: [] };
const initial = { ok: false };

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

beforeEach(() => {
  vi.clearAllMocks();
  caller.requireAdmin.mockResolvedValue(admin);
});

describe("defineAction", () => {
  it("refuses a malformed form with 400 before asking who calls", async () => {
    const body = vi.fn();
    const action = defineAction({ role: "admin", fields: idFields("serverId") }, body);
    expect(await action(initial, form({ name: "a\0b" }))).toMatchObject({ ok: false, status: 400 });
    expect(await action(initial, form({ serverId: "../../etc" }))).toMatchObject({ status: 400, fields: { serverId: "Not a valid id." } });
    expect(await action(initial, "not a form" as unknown as FormData)).toMatchObject({ status: 400 });
    expect(caller.requireAdmin).not.toHaveBeenCalled();
    expect(body).not.toHaveBeenCalled();
  });

  it("answers a caller the role refuses with the refusal's state, and runs and revalidates nothing", async () => {
    caller.requireAdmin.mockRejectedValue(Forbidden());
    const body = vi.fn();
    const action = defineAction({ role: "admin", secret: ["apiKey"], revalidate: ["/admin/providers"] }, body);
    const state = await action(initial, form({ name: "Mine", apiKey: "sk-secret" }));
    expect(state).toMatchObject({ ok: false, status: 403, message: "Only team admins can do this.", values: { name: "Mine" } });
    expect(JSON.stringify(state)).not.toContain("sk-secret");
    expect(body).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("gives the body the admin's context, and never echoes a secret field of a rejected form", async () => {
    const action = defineAction({ role: "admin", secret: ["apiKey"] }, async (ctx) => {
      expect(ctx).toMatchObject({ ...admin, headers: expect.any(Headers) });
      throw Invalid("Please correct the highlighted fields.", { apiKey: "Not a key." });
    });
    const state = await action(initial, form({ name: "Mine", apiKey: "sk-secret", newPassword: "hunter22" }));
    expect(state).toMatchObject({ ok: false, status: 400, fields: { apiKey: "Not a key." }, values: { name: "Mine" } });
    expect(JSON.stringify(state)).not.toMatch(/sk-secret|hunter22/);
  });

  it("revalidates what the body changed, then follows its redirect", async () => {
    const action = defineAction({ role: "admin", revalidate: (f) => [`/admin/mcp/${f.get("serverId")}`, { layout: "/admin" }] }, async () => ({
      redirectTo: "/admin/mcp",
    }));
    await expect(action(initial, form({ serverId: "s1" }))).rejects.toMatchObject({ digest: expect.stringContaining(";/admin/mcp;") });
    expect(revalidatePath.mock.calls).toEqual([["/admin/mcp/s1"], ["/admin", "layout"]]);
  });

  it("answers { ok: true } for a body that returns nothing", async () => {
    expect(await defineAction({ role: "admin" }, async () => {})(initial, form({}))).toEqual({ ok: true });
  });
});

describe("defineArgsAction", () => {
  it("answers an argument of no known shape with 404 before asking who calls", async () => {
    const body = vi.fn();
    const action = defineArgsAction({ args: idField, role: "admin" }, body);
    await expect(action("'; drop table")).rejects.toMatchObject({ digest: expect.stringContaining("404") });
    expect(caller.requireAdmin).not.toHaveBeenCalled();
    expect(body).not.toHaveBeenCalled();
  });

  it("runs the body with the parsed argument, then revalidates", async () => {
    const action = defineArgsAction({ args: idField, role: "admin", revalidate: (id) => [`/admin/mcp/${id}`] }, async (ctx, id) => `${ctx.user.id}:${id}`);
    expect(await action("s1")).toBe("u1:s1");
    expect(revalidatePath).toHaveBeenCalledWith("/admin/mcp/s1");
  });
});
