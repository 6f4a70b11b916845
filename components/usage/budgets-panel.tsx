"use client";
// Admin → Usage → Budgets: the team's monthly budgets with what each has used, a form to set one
// (for the team, every member, one member or one model; dollars or tokens) and Remove.
import { useState } from "react";
import { formatBudgetAmount } from "@/lib/format/usage";
import type { BudgetView } from "@/lib/usage/budget-admin";
import { ActionForm, type FormAction } from "../ui/action-form";
import { Field, FormField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { SubmitButton } from "../ui/submit-button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";

type Choice = { id: string; label: string };

export function BudgetsPanel({
  budgets,
  members,
  models,
  save,
  remove,
}: {
  budgets: BudgetView[];
  members: Choice[];
  models: Choice[];
  save: FormAction;
  remove: FormAction;
}) {
  const [scope, setScope] = useState("team");
  return (
    <div className="flex flex-col gap-4">
      {budgets.length === 0 ? (
        <p className="text-sm text-subtle">No budgets: members may use any amount.</p>
      ) : (
        <Table label="Budgets">
          <TableHeader>
            <tr>
              <TableHead>For</TableHead>
              <TableHead>Monthly limit</TableHead>
              <TableHead>Used this month</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {budgets.map((b) => (
              <TableRow key={b.id}>
                <TableCell>{b.subject}</TableCell>
                <TableCell>{formatBudgetAmount(b.metric, b.limit)}</TableCell>
                <TableCell>
                  {formatBudgetAmount(b.metric, b.used)} ({Math.floor((b.used / b.limit) * 100)}%)
                </TableCell>
                <TableCell>
                  <ActionForm action={remove} className="inline" label={`Remove budget for ${b.subject}`}>
                    {() => (
                      <>
                        <input type="hidden" name="budgetId" value={b.id} />
                        <SubmitButton variant="secondary" size="xs" pendingText="Removing…">
                          Remove
                        </SubmitButton>
                      </>
                    )}
                  </ActionForm>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ActionForm action={save} label="Set a budget" className="flex flex-wrap items-end gap-3" showSuccess>
        {(state) => {
          const f = state.fields ?? {};
          return (
            <>
              <FormField label="For" error={f.scope}>
                {(control) => (
                  <OptionSelect
                    {...control}
                    name="scope"
                    value={scope}
                    onValueChange={setScope}
                    options={[
                      { value: "team", label: "Whole team" },
                      { value: "member_default", label: "Each member (default)" },
                      { value: "member", label: "One member" },
                      { value: "model", label: "One model" },
                    ]}
                  />
                )}
              </FormField>
              {scope === "member" && (
                <FormField label="Member" error={f.userId}>
                  {(control) => (
                    <OptionSelect
                      {...control}
                      name="userId"
                      defaultValue=""
                      placeholder="Choose a member"
                      options={members.map((m) => ({ value: m.id, label: m.label }))}
                    />
                  )}
                </FormField>
              )}
              {scope === "model" && (
                <FormField label="Model" error={f.modelRowId}>
                  {(control) => (
                    <OptionSelect
                      {...control}
                      name="modelRowId"
                      defaultValue=""
                      placeholder="Choose a model"
                      options={models.map((m) => ({ value: m.id, label: m.label }))}
                    />
                  )}
                </FormField>
              )}
              <FormField label="In" error={f.metric}>
                {(control) => (
                  <OptionSelect
                    {...control}
                    name="metric"
                    defaultValue="cost"
                    options={[
                      { value: "cost", label: "US dollars" },
                      { value: "tokens", label: "Tokens" },
                    ]}
                  />
                )}
              </FormField>
              <Field label="Monthly limit" name="limit" inputMode="decimal" defaultValue={state.values?.limit ?? ""} error={f.limit} className="w-36" />
              <SubmitButton pendingText="Saving…">Set budget</SubmitButton>
            </>
          );
        }}
      </ActionForm>
    </div>
  );
}
