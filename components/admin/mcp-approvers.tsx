"use client";
// A server's approvers, on its admin page: which admins are emailed when a call of this server's tools
// waits for an admin. None ticked: every admin of the team (the default). Any admin can still decide
// in the Approvals inbox; this chooses only who is asked.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { CheckboxField } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export type ApproverChoice = { id: string; name: string; email: string };

export function McpApprovers({
  serverId,
  admins,
  named,
  action,
  emailOn,
}: {
  serverId: string;
  admins: ApproverChoice[];
  named: string[];
  action: FormAction;
  emailOn: boolean;
}) {
  const chosen = new Set(named);
  return (
    <ActionForm action={action} label="Approvers" showSuccess className="flex flex-col gap-2">
      {() => (
        <>
          <input type="hidden" name="serverId" value={serverId} />
          <p id="mcp-approvers-hint" className="text-xs text-subtle">
            Who is emailed when a call of this server waits for an admin. None ticked: every admin of the team.
            {emailOn ? "" : " Email is off on this server, so nobody is emailed yet."}
          </p>
          <fieldset aria-describedby="mcp-approvers-hint" className="flex flex-col gap-1">
            <legend className="sr-only">Approvers</legend>
            {admins.map((a) => (
              <CheckboxField
                key={`${a.id}-${chosen.has(a.id)}`}
                name="approvers"
                value={a.id}
                defaultChecked={chosen.has(a.id)}
                label={`${a.name} (${a.email})`}
              />
            ))}
          </fieldset>
          <SubmitButton variant="secondary" size="sm" className="self-start" pendingText="Saving…">
            Save approvers
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
