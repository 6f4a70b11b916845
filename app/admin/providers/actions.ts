"use server";
// Server actions of the providers admin. Each checks the admin role on the server first, validates
// with the form's zod schema, and never echoes a key or header value back to the browser.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { createProvider, deleteProvider, providerRow, setProviderEnabled, testProviderSettings, updateProvider } from "@/lib/providers/admin";
import { deleteModel, enableModels, saveModel, setTeamModels } from "@/lib/providers/models";
import { modelPurpose } from "@/lib/providers/model-purpose";
import { describeProbe, listProviderModels } from "@/lib/providers/probe";
import { enableModelsSchema, modelFormSchema, providerFormSchema, teamModelsSchema } from "@/lib/providers/schemas";
import { requireAdmin } from "@/lib/teams/context";
import { parseForm } from "@/lib/validation";

/** Never echoed back into a rejected form. */
const SECRET_FIELDS = ["apiKey", "headers"];

/** runAction, without echoing the secrets back into the form. */
const run = (fn: () => Promise<ActionState | void>, form: FormData) => runAction(fn, form, SECRET_FIELDS);

const id = (form: FormData, key: string) => String(form.get(key) ?? "");

export async function createProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  let createdId = "";
  const state = await run(async () => {
    const ctx = await requireAdmin();
    createdId = (await createProvider(ctx, parseForm(providerFormSchema, form))).id;
    revalidatePath("/admin/providers");
  }, form);
  if (state.ok) redirect(`/admin/providers/${createdId}`);
  return state;
}

export async function updateProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    await updateProvider(ctx, id(form, "providerId"), parseForm(providerFormSchema, form));
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: "Provider saved." };
  }, form);
}

export async function toggleProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    const enabled = form.get("enabled") === "true";
    await setProviderEnabled(ctx, id(form, "providerId"), enabled);
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: enabled ? "Provider enabled." : "Provider disabled: its models are no longer offered." };
  }, form);
}

export async function deleteProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  const state = await run(async () => {
    await deleteProvider(await requireAdmin(), id(form, "providerId"));
    revalidatePath("/admin/providers", "layout");
  }, form);
  if (state.ok) redirect("/admin/providers");
  return state;
}

/**
 * Test connection: with the values in the form (an empty key or header field means the stored ones of
 * the provider being edited, for the same origin only), one real request with a timeout. Nothing is saved.
 */
export async function testConnectionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    const input = parseForm(providerFormSchema, { ...Object.fromEntries(form.entries()), name: String(form.get("name") || "test") });
    const result = await testProviderSettings(ctx, id(form, "providerId") || undefined, input);
    return { ok: result.ok, status: result.ok ? 200 : (result.status ?? 502), message: describeProbe(result) };
  }, form);
}

/** Fetch models: the provider's list, as JSON in data.models (ids), and in data.notChat the ids of embedding and other non-chat models. */
export async function fetchModelsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    const row = await providerRow(ctx.team.id, id(form, "providerId"));
    const result = await listProviderModels(row);
    if (!result.ok) return { ok: false, status: result.status ?? 502, message: result.message };
    const notChat = Object.fromEntries(result.models.flatMap((m) => (modelPurpose(m) === "chat" ? [] : [[m, modelPurpose(m)]])));
    return { ok: true, message: describeProbe(result), data: { models: JSON.stringify(result.models), notChat: JSON.stringify(notChat) } };
  }, form);
}

export async function enableModelsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    const { modelIds } = enableModelsSchema.parse({ modelIds: form.getAll("modelIds").map(String) });
    const n = await enableModels(ctx, id(form, "providerId"), modelIds);
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: `${n} model${n === 1 ? "" : "s"} enabled.` };
  }, form);
}

export async function saveModelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    const modelRowId = id(form, "modelRowId") || undefined;
    await saveModel(ctx, id(form, "providerId"), modelRowId, parseForm(modelFormSchema, form));
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: modelRowId ? "Model saved." : "Model added." };
  }, form);
}

export async function deleteModelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    await deleteModel(await requireAdmin(), id(form, "modelRowId"));
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: "Model deleted." };
  }, form);
}

export async function setTeamModelsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("providerId", "modelRowId"));
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireAdmin();
    await setTeamModels(ctx, parseForm(teamModelsSchema, form));
    revalidatePath("/admin/providers", "layout");
    return { ok: true, message: "Team models saved." };
  }, form);
}
