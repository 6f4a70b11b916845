"use server";
// Admin actions on the team's budgets. Each one checks the admin role on the server first.
import { idFields } from "@/lib/actions";
import { budgetFormSchema, deleteBudget, saveBudget } from "@/lib/usage/budget-admin";
import { parseForm } from "@/lib/validation";
import { defineAction, formText } from "@/app/_server/actions";

const USAGE = ["/admin/usage"];

export const saveBudgetAction = defineAction({ role: "admin", fields: idFields("userId", "modelRowId"), revalidate: USAGE }, async (ctx, form) => {
  await saveBudget(ctx, parseForm(budgetFormSchema, form));
  return { ok: true, message: "Budget saved." };
});

export const deleteBudgetAction = defineAction({ role: "admin", fields: idFields("budgetId"), revalidate: USAGE }, async (ctx, form) => {
  await deleteBudget(ctx, formText(form, "budgetId"));
  return { ok: true, message: "Budget removed." };
});
