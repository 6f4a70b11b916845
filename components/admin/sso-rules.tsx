"use client";
// Group rules (group value → team and role) with a form to add one and a Remove button per rule,
// the switch for email and password sign-in, and the button that removes single sign-on.
import type { FormAction } from "@/components/ui/action-form";
import { ActionForm } from "@/components/ui/action-form";
import type { GroupRuleView } from "@/lib/identity/group-rules";
import { Field, FormField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { SubmitButton } from "../ui/submit-button";

export function GroupRules({
  rules,
  teams,
  add,
  remove,
}: {
  rules: GroupRuleView[];
  teams: { id: string; name: string }[];
  add: FormAction;
  remove: FormAction;
}) {
  return (
    <div className="flex flex-col gap-4">
      {rules.length === 0 ? (
        <p className="text-sm text-subtle">No rules yet: people who sign in this way join no team until a rule or an invite adds them.</p>
      ) : (
        <ul aria-label="Group rules" className="flex flex-col divide-y divide-line rounded-lg border border-line">
          {rules.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <span>
                Group <code className="font-mono">{r.group}</code> → {r.role} of {r.teamName}
              </span>
              <ActionForm action={remove} className="ml-auto" label={`Remove rule ${r.group} → ${r.teamName}`}>
                {() => (
                  <>
                    <input type="hidden" name="ruleId" value={r.id} />
                    <SubmitButton size="sm" variant="secondary" pendingText="Removing…" aria-label={`Remove rule ${r.group} → ${r.role} of ${r.teamName}`}>
                      Remove
                    </SubmitButton>
                  </>
                )}
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      <ActionForm action={add} label="Add a group rule" className="flex flex-wrap items-end gap-3" showSuccess>
        {(state) => (
          <>
            <Field
              label="Group"
              name="group"
              required
              maxLength={200}
              defaultValue={state.ok ? "" : state.values?.group}
              error={state.fields?.group}
              className="min-w-48 flex-1"
            />
            <FormField label="Team" error={state.fields?.teamId}>
              {(control) => (
                <OptionSelect
                  {...control}
                  name="teamId"
                  defaultValue={state.values?.teamId ?? teams[0]?.id}
                  options={teams.map((t) => ({ value: t.id, label: t.name }))}
                />
              )}
            </FormField>
            <FormField label="Role" error={state.fields?.role}>
              {(control) => (
                <OptionSelect
                  {...control}
                  name="role"
                  defaultValue={state.values?.role ?? "member"}
                  options={[
                    { value: "member", label: "Member" },
                    { value: "admin", label: "Admin" },
                  ]}
                />
              )}
            </FormField>
            <SubmitButton pendingText="Adding…">Add rule</SubmitButton>
          </>
        )}
      </ActionForm>
    </div>
  );
}

export function PasswordSignInSwitch({ on, action }: { on: boolean; action: FormAction }) {
  return (
    <ActionForm action={action} label="Email and password sign-in" showSuccess>
      {() => (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span>Email and password sign-in is {on ? "on" : "off"}.</span>
          <input type="hidden" name="password" value={on ? "off" : "on"} />
          <SubmitButton variant="secondary" size="sm" pendingText="Saving…">
            {on ? "Turn password sign-in off" : "Turn password sign-in on"}
          </SubmitButton>
        </div>
      )}
    </ActionForm>
  );
}

/** Stays on the page after the removal (without its button), so what it did is still said there. */
export function RemoveSsoButton({ action, configured }: { action: FormAction; configured: boolean }) {
  return (
    <ActionForm action={action} label="Remove single sign-on" showSuccess>
      {() =>
        configured && (
          <div>
            <SubmitButton variant="danger" size="sm" pendingText="Removing…">
              Remove single sign-on
            </SubmitButton>
          </div>
        )
      }
    </ActionForm>
  );
}
