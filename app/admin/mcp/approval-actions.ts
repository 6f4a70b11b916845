"use server";
// Admin actions on how a server's tools are approved: trusting its read-only hints, time limits for a
// decision (server and tool), and rules on a tool's arguments. Each checks the admin role first; bad
// input comes back as field errors and nothing is saved.
import { revalidatePath } from "next/cache";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { requireAdmin } from "@/lib/teams/context";
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
import { parseForm } from "@/lib/validation";

const saved = (form: FormData, message: string): ActionState => {
  revalidatePath(`/admin/mcp/${String(form.get("serverId") ?? "")}`);
  return { ok: true, message };
};

export async function setMcpServerTrustAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(trustReadOnlySchema, form);
    await setServerTrustReadOnly(await requireAdmin(), input.serverId, input.trustReadOnly);
    return saved(
      form,
      input.trustReadOnly ? "Tools this server marks read-only now run without asking." : "Every tool of this server asks unless set otherwise.",
    );
  }, form);
}

export async function setMcpServerTimeoutAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(serverTimeoutSchema, form);
    await setServerDecisionTimeout(await requireAdmin(), input.serverId, input.minutes);
    return saved(form, input.minutes ? `Calls waiting longer than ${input.minutes} minutes are denied.` : "Calls wait for a decision without a time limit.");
  }, form);
}

export async function setMcpToolTimeoutAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(toolTimeoutSchema, form);
    await setToolDecisionTimeout(await requireAdmin(), input.toolId, input.minutes);
    return saved(form, "Time limit saved.");
  }, form);
}

export async function addMcpToolRuleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(ruleFormSchema, form);
    await addToolRule(await requireAdmin(), input.toolId, input.rule);
    return saved(form, "Rule added.");
  }, form);
}

export async function removeMcpToolRuleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId", "toolId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(removeRuleSchema, form);
    await removeToolRule(await requireAdmin(), input.toolId, input.index);
    return saved(form, "Rule removed.");
  }, form);
}
