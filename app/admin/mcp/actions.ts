"use server";
// Admin actions on the team's MCP servers. Each checks the admin role on the server first; bad input
// comes back as field errors and nothing is saved.
import { idFields } from "@/lib/actions";
import { memberServerConfig } from "@/lib/identity/mcp-member-config";
import { probeServer } from "@/lib/mcp/probe";
import { mcpServerFormSchema } from "@/lib/mcp/server-schema";
import { createServer, deleteServer, setServerEnabled, updateServer } from "@/lib/mcp/server-admin";
import { onByDefaultSchema, serverPolicySchema, setServerDefaultPolicy, setServerOnByDefault, setToolPolicy, toolPolicySchema } from "@/lib/tools/policy-admin";
import { idField, parseForm } from "@/lib/validation";
import { defineAction, defineArgsAction, formText, type FormActionOptions } from "@/app/_server/actions";

/** Every MCP servers form: an admin's, its ids in their shape, its secrets never echoed back. */
const MCP = {
  role: "admin",
  fields: idFields("serverId", "toolId"),
  secret: ["headers", "bearerToken", "env", "oauthClientSecret"],
} satisfies FormActionOptions<"admin">;
/** A change to the form's server: its page and the list. */
const SERVER_CHANGE = { ...MCP, revalidate: (form: FormData) => [`/admin/mcp/${formText(form, "serverId")}`, "/admin/mcp"] };
/** A change to the server's tools or policies: its page. */
const POLICY_CHANGE = { ...MCP, revalidate: (form: FormData) => [`/admin/mcp/${formText(form, "serverId")}`] };

export const createMcpServerAction = defineAction(MCP, async (ctx, form) => {
  const { id } = await createServer(ctx, parseForm(mcpServerFormSchema, form));
  return { redirectTo: `/admin/mcp/${id}?created=1` };
});

export const updateMcpServerAction = defineAction(SERVER_CHANGE, async (ctx, form) => {
  await updateServer(ctx, formText(form, "serverId"), parseForm(mcpServerFormSchema, form));
  return { ok: true, message: "Saved. The server will be reconnected with the new settings." };
});

export const setMcpServerEnabledAction = defineAction(SERVER_CHANGE, async (ctx, form) => {
  const enabled = form.get("enabled") === "true";
  await setServerEnabled(ctx, formText(form, "serverId"), enabled);
  return { ok: true, message: enabled ? "Server enabled." : "Server disabled: its tools are no longer offered." };
});

export const deleteMcpServerAction = defineAction({ ...MCP, revalidate: ["/admin/mcp"] }, async (ctx, form) => {
  await deleteServer(ctx, formText(form, "serverId"));
  return { redirectTo: "/admin/mcp" };
});

export const setMcpToolPolicyAction = defineAction(POLICY_CHANGE, async (ctx, form) => {
  const input = parseForm(toolPolicySchema, form);
  await setToolPolicy(ctx, input.toolId, input.policy);
  return { ok: true, message: "Policy saved. Members' always-allow choices for this tool were cleared." };
});

export const setMcpServerPolicyAction = defineAction(POLICY_CHANGE, async (ctx, form) => {
  const input = parseForm(serverPolicySchema, form);
  await setServerDefaultPolicy(ctx, input.serverId, input.policy);
  return { ok: true, message: "Default policy saved. Members' always-allow choices for this server's tools were cleared." };
});

export const setMcpServerOnByDefaultAction = defineAction(POLICY_CHANGE, async (ctx, form) => {
  const input = parseForm(onByDefaultSchema, form);
  await setServerOnByDefault(ctx, input.serverId, input.onByDefault);
  return {
    ok: true,
    message: input.onByDefault
      ? "On by default: new chats of members who have not chosen tools yet use this server's tools."
      : "No longer on by default in new chats.",
  };
});

/** Test a server now; a server of members' own credentials is tried with the admin's own connection. */
export const testMcpServerAction = defineArgsAction({ args: idField, role: "admin", revalidate: (id) => [`/admin/mcp/${id}`] }, async (ctx, id) =>
  probeServer(ctx, id, async (row) => (await memberServerConfig(row, ctx.user.id)).config),
);
