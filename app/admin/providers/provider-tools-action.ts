"use server";
// Admin action: allow or disallow a model's provider-executed tools (web search), which run without
// Parley's approval. Checks the admin role first.
import { revalidatePath } from "next/cache";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { providerToolsSchema, setProviderToolsAllowed } from "@/lib/providers/models";
import { requireAdmin } from "@/lib/teams/context";
import { parseForm } from "@/lib/validation";

export async function setProviderToolsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("modelRowId", "providerId"));
  if (refused) return refused;
  return runAction(async () => {
    const input = parseForm(providerToolsSchema, form);
    await setProviderToolsAllowed(await requireAdmin(), input.modelRowId, input.allowed);
    revalidatePath(`/admin/providers/${String(form.get("providerId") ?? "")}`);
    return {
      ok: true,
      message: input.allowed ? "Tools that run at the provider are allowed for this model." : "Tools that run at the provider are off for this model.",
    };
  }, form);
}
