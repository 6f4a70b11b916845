"use server";
// Admin -> Approvals settings: one-click links in approval emails (decide without signing in). Admins only.
import { oneClickSchema, setOneClickLinks } from "@/lib/notifications/approvers";
import { parseForm } from "@/lib/validation";
import { defineAction } from "@/app/_server/actions";

export const setOneClickLinksAction = defineAction({ role: "admin", revalidate: ["/admin/approvals"] }, async (ctx, form) => {
  const { oneClick } = parseForm(oneClickSchema, form);
  await setOneClickLinks(ctx, oneClick);
  return {
    ok: true,
    message: oneClick ? "Links in approval emails now decide without signing in." : "Links in approval emails now ask the approver to sign in.",
  };
});
