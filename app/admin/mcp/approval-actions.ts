"use server";
// Admin actions on how a server's tools are approved: trusting its read-only hints, time limits for a
// decision (server and tool), rules on a tool's arguments, and the approvers emailed for its calls. Each checks the admin role first; bad
// input comes back as field errors and nothing is saved.
import { idFields } from "@/lib/actions";
import {
  addToolRule,
  removeRuleSchema,
  removeToolRule,
  ruleFormSchema,
  serverTimeoutSchema,
  setServerDecisionTimeout,
  setServerTrustReadOnly,
  setToolDecisionTimeout,
  toolTimeoutSchema,
  trustReadOnlySchema,
} from "@/lib/tools/policy-admin";
import { approversSchema, setServerApprovers } from "@/lib/notifications/approvers";
import { parseForm } from "@/lib/validation";
import { defineAction, formText, type FormActionOptions } from "@/app/_server/actions";

/** The server's page shows every one of these settings. */
const serverPage = (form: FormData) => [`/admin/mcp/${formText(form, "serverId")}`];
const SERVER_SETTING = { role: "admin", fields: idFields("serverId"), revalidate: serverPage } satisfies FormActionOptions<"admin">;
const TOOL_SETTING = { ...SERVER_SETTING, fields: idFields("serverId", "toolId") };

export const setMcpServerTrustAction = defineAction(SERVER_SETTING, async (ctx, form) => {
  const input = parseForm(trustReadOnlySchema, form);
  await setServerTrustReadOnly(ctx, input.serverId, input.trustReadOnly);
  return {
    ok: true,
    message: input.trustReadOnly ? "Tools this server marks read-only now run without asking." : "Every tool of this server asks unless set otherwise.",
  };
});

export const setMcpServerTimeoutAction = defineAction(SERVER_SETTING, async (ctx, form) => {
  const input = parseForm(serverTimeoutSchema, form);
  await setServerDecisionTimeout(ctx, input.serverId, input.minutes);
  return {
    ok: true,
    message: input.minutes ? `Calls waiting longer than ${input.minutes} minutes are denied.` : "Calls wait for a decision without a time limit.",
  };
});

export const setMcpToolTimeoutAction = defineAction(TOOL_SETTING, async (ctx, form) => {
  const input = parseForm(toolTimeoutSchema, form);
  await setToolDecisionTimeout(ctx, input.toolId, input.minutes);
  return { ok: true, message: "Time limit saved." };
});

export const addMcpToolRuleAction = defineAction(TOOL_SETTING, async (ctx, form) => {
  const input = parseForm(ruleFormSchema, form);
  await addToolRule(ctx, input.toolId, input.rule);
  return { ok: true, message: "Rule added." };
});

export const removeMcpToolRuleAction = defineAction(TOOL_SETTING, async (ctx, form) => {
  const input = parseForm(removeRuleSchema, form);
  await removeToolRule(ctx, input.toolId, input.index);
  return { ok: true, message: "Rule removed." };
});

export const setMcpApproversAction = defineAction(SERVER_SETTING, async (ctx, form) => {
  const input = approversSchema.parse({ serverId: formText(form, "serverId"), approvers: form.getAll("approvers") });
  await setServerApprovers(ctx, input.serverId, input.approvers);
  return {
    ok: true,
    message: input.approvers.length
      ? `Approvers saved: ${input.approvers.length} admin${input.approvers.length === 1 ? " is" : "s are"} emailed for this server's calls.`
      : "Every admin of the team is emailed for this server's calls.",
  };
});
