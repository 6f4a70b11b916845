"use server";
// Admin actions on the team's budgets. Each one checks the admin role on the server first.
import { revalidatePath } from "next/cache";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { requireAdmin } from "@/lib/teams/context";
import { budgetFormSchema, deleteBudget, saveBudget } from "@/lib/usage/budget-admin";
import { parseForm } from "@/lib/validation";

export async function saveBudgetAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("userId", "modelRowId"));
  if (refused) return refused;
  return runAction(async () => {
    await saveBudget(await requireAdmin(), parseForm(budgetFormSchema, form));
    revalidatePath("/admin/usage");
    return { ok: true, message: "Budget saved." };
  }, form);
}

export async function deleteBudgetAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("budgetId"));
  if (refused) return refused;
  return runAction(async () => {
    await deleteBudget(await requireAdmin(), String(form.get("budgetId") ?? ""));
    revalidatePath("/admin/usage");
    return { ok: true, message: "Budget removed." };
  });
}
