"use server";
// Admin action: allow or disallow a model's provider-executed tools (web search), which run without
// Parley's approval. Checks the admin role first.
import { idFields } from "@/lib/actions";
import { providerToolsSchema, setProviderToolsAllowed } from "@/lib/providers/models";
import { parseForm } from "@/lib/validation";
import { defineAction, formText } from "@/app/_server/actions";

export const setProviderToolsAction = defineAction(
  { role: "admin", fields: idFields("modelRowId", "providerId"), revalidate: (form) => [`/admin/providers/${formText(form, "providerId")}`] },
  async (ctx, form) => {
    const input = parseForm(providerToolsSchema, form);
    await setProviderToolsAllowed(ctx, input.modelRowId, input.allowed);
    return {
      ok: true,
      message: input.allowed ? "Tools that run at the provider are allowed for this model." : "Tools that run at the provider are off for this model.",
    };
  },
);
