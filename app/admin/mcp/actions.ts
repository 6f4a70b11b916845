"use server";
// Admin actions on the team's MCP servers. Each checks the admin role on the server first; bad input
// comes back as field errors and nothing is saved.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { checkArgs, checkForm, idFields, interrupts, runAction, type ActionState } from "@/lib/actions";
import { memberServerConfig } from "@/lib/identity/mcp-member-config";
import { probeServer, type ProbeResult } from "@/lib/mcp/probe";
import { mcpServerFormSchema } from "@/lib/mcp/server-schema";
import { createServer, deleteServer, setServerEnabled, updateServer } from "@/lib/mcp/servers";
import { requireAdmin } from "@/lib/teams/context";
import { onByDefaultSchema, serverPolicySchema, setServerDefaultPolicy, setServerOnByDefault, setToolPolicy, toolPolicySchema } from "@/lib/tools/policy-admin";
import { idField, parseForm } from "@/lib/validation";

/** Never echoed back into a rejected form. */
const SECRET_FIELDS = ["headers", "bearerToken", "env", "oauthClientSecret"];

export async function createMcpServerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  let id = "";
  const state = await runAction(
    async () => {
      const ctx = await requireAdmin();
      ({ id } = await createServer(ctx, parseForm(mcpServerFormSchema, form)));
    },
    form,
    SECRET_FIELDS,
  );
  if (state.ok) redirect(`/admin/mcp/${id}?created=1`);
  return state;
}

export async function updateMcpServerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(
    async () => {
      const ctx = await requireAdmin();
      const id = String(form.get("serverId") ?? "");
      await updateServer(ctx, id, parseForm(mcpServerFormSchema, form));
      revalidatePath(`/admin/mcp/${id}`);
      revalidatePath("/admin/mcp");
      return { ok: true, message: "Saved. The server will be reconnected with the new settings." };
    },
    form,
    SECRET_FIELDS,
  );
}

export async function setMcpServerEnabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const id = String(form.get("serverId") ?? "");
    const enabled = form.get("enabled") === "true";
    await setServerEnabled(ctx, id, enabled);
    revalidatePath(`/admin/mcp/${id}`);
    revalidatePath("/admin/mcp");
    return { ok: true, message: enabled ? "Server enabled." : "Server disabled: its tools are no longer offered." };
  });
}

export async function deleteMcpServerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  const state = await runAction(async () => {
    const ctx = await requireAdmin();
    await deleteServer(ctx, String(form.get("serverId") ?? ""));
  });
  if (state.ok) {
    revalidatePath("/admin/mcp");
    redirect("/admin/mcp");
  }
  return state;
}

export async function setMcpToolPolicyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = parseForm(toolPolicySchema, form);
    await setToolPolicy(ctx, input.toolId, input.policy);
    revalidatePath(`/admin/mcp/${String(form.get("serverId") ?? "")}`);
    return { ok: true, message: "Policy saved. Members' always-allow choices for this tool were cleared." };
  }, form);
}

export async function setMcpServerPolicyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = parseForm(serverPolicySchema, form);
    await setServerDefaultPolicy(ctx, input.serverId, input.policy);
    revalidatePath(`/admin/mcp/${input.serverId}`);
    return { ok: true, message: "Default policy saved. Members' always-allow choices for this server's tools were cleared." };
  }, form);
}

export async function setMcpServerOnByDefaultAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = parseForm(onByDefaultSchema, form);
    await setServerOnByDefault(ctx, input.serverId, input.onByDefault);
    revalidatePath(`/admin/mcp/${input.serverId}`);
    return {
      ok: true,
      message: input.onByDefault
        ? "On by default: new chats of members who have not chosen tools yet use this server's tools."
        : "No longer on by default in new chats.",
    };
  }, form);
}

export async function testMcpServerAction(serverId: string): Promise<ProbeResult> {
  const id = checkArgs(idField, serverId);
  return interrupts(async () => {
    const ctx = await requireAdmin();
    // A server of members' own credentials is tried with the admin's own connection.
    const result = await probeServer(ctx, id, async (row) => (await memberServerConfig(row, ctx.user.id)).config);
    revalidatePath(`/admin/mcp/${id}`);
    return result;
  });
}
