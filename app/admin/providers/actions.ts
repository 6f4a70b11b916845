"use server";
// Server actions of the providers admin. Each checks the admin role on the server first, validates
// with the form's zod schema, and never echoes a key or header value back to the browser.
import { idFields } from "@/lib/actions";
import { createProvider, deleteProvider, providerRow, setProviderEnabled, testProviderSettings, updateProvider } from "@/lib/providers/admin";
import { deleteModel, enableModels, saveModel, setTeamModels } from "@/lib/providers/models";
import { modelPurpose } from "@/lib/providers/model-purpose";
import { describeProbe, listProviderModels } from "@/lib/providers/probe";
import { enableModelsSchema, modelFormSchema, providerFormSchema, teamModelsSchema } from "@/lib/providers/schemas";
import { parseForm } from "@/lib/validation";
import { defineAction, formText, type FormActionOptions } from "@/app/_server/actions";

/** Every providers form: an admin's, its ids in their shape, its key and header values never echoed back. */
const PROVIDERS = { role: "admin", fields: idFields("providerId", "modelRowId"), secret: ["apiKey", "headers"] } satisfies FormActionOptions<"admin">;
/** A change, which every providers page shows. */
const CHANGE = { ...PROVIDERS, revalidate: [{ layout: "/admin/providers" }] };

export const createProviderAction = defineAction({ ...PROVIDERS, revalidate: ["/admin/providers"] }, async (ctx, form) => {
  const { id } = await createProvider(ctx, parseForm(providerFormSchema, form));
  return { redirectTo: `/admin/providers/${id}` };
});

export const updateProviderAction = defineAction(CHANGE, async (ctx, form) => {
  await updateProvider(ctx, formText(form, "providerId"), parseForm(providerFormSchema, form));
  return { ok: true, message: "Provider saved." };
});

export const toggleProviderAction = defineAction(CHANGE, async (ctx, form) => {
  const enabled = form.get("enabled") === "true";
  await setProviderEnabled(ctx, formText(form, "providerId"), enabled);
  return { ok: true, message: enabled ? "Provider enabled." : "Provider disabled: its models are no longer offered." };
});

export const deleteProviderAction = defineAction(CHANGE, async (ctx, form) => {
  await deleteProvider(ctx, formText(form, "providerId"));
  return { redirectTo: "/admin/providers" };
});

/**
 * Test connection: with the values in the form (an empty key or header field means the stored ones of
 * the provider being edited, for the same origin only), one real request with a timeout. Nothing is saved.
 */
export const testConnectionAction = defineAction(PROVIDERS, async (ctx, form) => {
  const input = parseForm(providerFormSchema, { ...Object.fromEntries(form.entries()), name: String(form.get("name") || "test") });
  const result = await testProviderSettings(ctx, formText(form, "providerId") || undefined, input);
  return { ok: result.ok, status: result.ok ? 200 : (result.status ?? 502), message: describeProbe(result) };
});

/** Fetch models: the provider's list, as JSON in data.models (ids), and in data.notChat the ids of embedding and other non-chat models. */
export const fetchModelsAction = defineAction(PROVIDERS, async (ctx, form) => {
  const row = await providerRow(ctx.team.id, formText(form, "providerId"));
  const result = await listProviderModels(row);
  if (!result.ok) return { ok: false, status: result.status ?? 502, message: result.message };
  const notChat = Object.fromEntries(result.models.flatMap((m) => (modelPurpose(m) === "chat" ? [] : [[m, modelPurpose(m)]])));
  return { ok: true, message: describeProbe(result), data: { models: JSON.stringify(result.models), notChat: JSON.stringify(notChat) } };
});

export const enableModelsAction = defineAction(CHANGE, async (ctx, form) => {
  const { modelIds } = enableModelsSchema.parse({ modelIds: form.getAll("modelIds").map(String) });
  const n = await enableModels(ctx, formText(form, "providerId"), modelIds);
  return { ok: true, message: `${n} model${n === 1 ? "" : "s"} enabled.` };
});

export const saveModelAction = defineAction(CHANGE, async (ctx, form) => {
  const modelRowId = formText(form, "modelRowId") || undefined;
  await saveModel(ctx, formText(form, "providerId"), modelRowId, parseForm(modelFormSchema, form));
  return { ok: true, message: modelRowId ? "Model saved." : "Model added." };
});

export const deleteModelAction = defineAction(CHANGE, async (ctx, form) => {
  await deleteModel(ctx, formText(form, "modelRowId"));
  return { ok: true, message: "Model deleted." };
});

export const setTeamModelsAction = defineAction(CHANGE, async (ctx, form) => {
  await setTeamModels(ctx, parseForm(teamModelsSchema, form));
  return { ok: true, message: "Team models saved." };
});
