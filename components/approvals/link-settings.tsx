"use client";
// Admin -> Approvals: whether the links in approval emails decide without signing in (one-click) or only
// for the approver signed in as themselves (the default). Either way a link decides one call, once,
// within a day, and only for an admin the email was sent to.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { CheckboxField, FormMessage } from "../ui/field";

export function LinkSettings({
  oneClick,
  action,
  emailOn,
  unsetBase,
}: {
  oneClick: boolean;
  action: FormAction;
  emailOn: boolean;
  /** Where links point when PARLEY_URL is not set (they open only on the server's own machine). */
  unsetBase?: string;
}) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-1" aria-label="Approval emails">
      <input type="hidden" name="oneClick" value={oneClick ? "false" : "true"} />
      <CheckboxField
        key={String(oneClick)}
        label="Links in approval emails decide without signing in"
        defaultChecked={oneClick}
        aria-describedby="one-click-hint"
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      />
      <p id="one-click-hint" className="text-xs text-subtle">
        Off (the default): the approver signs in as themselves first. On: whoever holds the email can decide, so only turn it on if your admins&apos; mail is
        private. Each link still works once, for one call, for at most a day.
        {emailOn ? "" : " Email is off on this server: no approval email is sent."}
      </p>
      {emailOn && unsetBase && (
        <p className="text-xs text-subtle">
          PARLEY_URL is not set, so the links point at {unsetBase}, which opens only on the server&apos;s own machine. Ask the operator to set it.
        </p>
      )}
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}
