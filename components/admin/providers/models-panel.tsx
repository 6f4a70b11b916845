"use client";
// The models of one provider: fetch the provider's list and enable some (fetched-models.tsx), add a model id by hand,
// edit a model's name, capability flags, context window and advanced options, or delete it.
import { useActionState, useState } from "react";
import { Trash2 } from "lucide-react";
import { initialActionState } from "@/components/ui/form-state";
import type { ModelView, ProviderView } from "@/lib/providers/admin";
import type { FormAction } from "@/components/ui/action-form";
import { CheckboxField, Field, FormField, FormMessage } from "../../ui/field";
import { FetchModels } from "./fetched-models";
import { Textarea } from "../../ui/input";
import { OptionSelect } from "../../ui/select";
import { Button } from "../../ui/button";
import { SubmitButton } from "../../ui/submit-button";

export type ModelActions = { fetch: FormAction; enable: FormAction; save: FormAction; remove: FormAction; providerTools?: FormAction };

export function ModelsPanel({ provider, webSearchKind, actions }: { provider: ProviderView; webSearchKind: boolean; actions: ModelActions }) {
  return (
    <div className="flex flex-col gap-6">
      <FetchModels provider={provider} actions={actions} />
      <ModelList provider={provider} webSearchKind={webSearchKind} actions={actions} />
      <details className="rounded-lg border border-line p-3">
        <summary className="cursor-pointer text-sm font-medium">Add a model by id</summary>
        <div className="pt-3">
          <ModelForm providerId={provider.id} webSearchKind={webSearchKind} save={actions.save} />
        </div>
      </details>
    </div>
  );
}

function ModelList({ provider, webSearchKind, actions }: { provider: ProviderView; webSearchKind: boolean; actions: ModelActions }) {
  const [removeState, removeAction] = useActionState(actions.remove, initialActionState);
  if (!provider.models.length) return <p className="text-sm text-subtle">No models yet. Fetch the provider&apos;s list or add a model by id.</p>;
  return (
    <div className="flex flex-col gap-2">
      <FormMessage message={removeState.message} ok={removeState.ok} />
      <ul className="flex flex-col divide-y divide-line rounded-lg border border-line" aria-label="Models">
        {provider.models.map((m) => (
          <li key={m.id} className="px-3 py-2">
            <details>
              <summary className="flex cursor-pointer items-center gap-2 text-sm">
                <span className="font-medium">{m.displayName}</span>
                {m.displayName !== m.modelId && <span className="font-mono text-xs text-subtle">{m.modelId}</span>}
                <span className="ml-auto flex gap-1 text-xs text-subtle">
                  {!m.enabled && <Badge>disabled</Badge>}
                  {m.toolCalling !== "native" && <Badge>tools: {m.toolCalling}</Badge>}
                  {m.vision && <Badge>vision</Badge>}
                  {m.reasoning && <Badge>reasoning</Badge>}
                  {m.webSearch && <Badge>web search</Badge>}
                </span>
              </summary>
              <div className="flex flex-col gap-3 pt-3">
                <ModelForm providerId={provider.id} model={m} webSearchKind={webSearchKind} save={actions.save} />
                {actions.providerTools && m.webSearch && <ProviderTools providerId={provider.id} model={m} action={actions.providerTools} />}
                <form action={removeAction}>
                  <input type="hidden" name="modelRowId" value={m.id} />
                  <Button type="submit" variant="ghost" size="sm" className="text-danger">
                    <Trash2 className="size-4" aria-hidden /> Delete model
                  </Button>
                </form>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whether the model's provider-executed tools (web search) may run: they run without Parley's approval. */
function ProviderTools({ providerId, model, action }: { providerId: string; model: ModelView; action: FormAction }) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-1">
      <input type="hidden" name="providerId" value={providerId} />
      <input type="hidden" name="modelRowId" value={model.id} />
      <input type="hidden" name="allowed" value={model.providerToolsAllowed ? "false" : "true"} />
      <CheckboxField
        key={String(model.providerToolsAllowed)}
        label="Allow tools that run at the provider (web search)"
        defaultChecked={model.providerToolsAllowed}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
        aria-describedby={`provider-tools-hint-${model.id}`}
      />
      <p id={`provider-tools-hint-${model.id}`} className="text-xs text-subtle">
        They run at the provider, outside Parley&apos;s approval; members see that on each such call.
      </p>
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}

function Badge({ children }: { children: React.ReactNode }) {
  return <span className="rounded bg-raised px-1.5 py-0.5">{children}</span>;
}

function ModelForm({ providerId, model, webSearchKind, save }: { providerId: string; model?: ModelView; webSearchKind: boolean; save: FormAction }) {
  const [state, action] = useActionState(save, initialActionState);
  const [options, setOptions] = useState(model?.providerOptions ?? "");
  const f = state.fields ?? {};
  const v = state.ok ? undefined : state.values;
  const checked = (key: "vision" | "reasoning" | "webSearch" | "enabled", fallback: boolean) => (v ? v[key] === "on" : fallback);
  return (
    <form action={action} className="flex flex-col gap-3" aria-label={model ? `Edit ${model.displayName}` : "New model"} noValidate>
      <input type="hidden" name="providerId" value={providerId} />
      {model && <input type="hidden" name="modelRowId" value={model.id} />}
      <FormMessage message={state.message} ok={state.ok} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Model id" name="modelId" defaultValue={v?.modelId ?? model?.modelId} error={f.modelId} required />
        <Field
          label="Display name"
          name="displayName"
          defaultValue={v?.displayName ?? model?.displayName}
          error={f.displayName}
          hint="Shown in the model picker."
        />
        <FormField label="Tool calling">
          {(control) => (
            <OptionSelect
              {...control}
              name="toolCalling"
              defaultValue={v?.toolCalling ?? model?.toolCalling ?? "native"}
              options={[
                { value: "native", label: "Native" },
                { value: "prompt", label: "Prompt-based" },
                { value: "none", label: "None" },
              ]}
            />
          )}
        </FormField>
        <Field
          label="Context window (tokens)"
          name="contextWindow"
          inputMode="numeric"
          defaultValue={v?.contextWindow ?? model?.contextWindow ?? ""}
          error={f.contextWindow}
          hint="The model reads the newest messages of a chat that fit. Empty: 128,000."
        />
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-3">
        <legend className="mb-1 text-sm font-medium">Prices (US dollars per million tokens)</legend>
        <Field label="Input" name="inputPrice" inputMode="decimal" defaultValue={v?.inputPrice ?? model?.inputPrice ?? ""} error={f.inputPrice} />
        <Field
          label="Cached input"
          name="cachedInputPrice"
          inputMode="decimal"
          defaultValue={v?.cachedInputPrice ?? model?.cachedInputPrice ?? ""}
          error={f.cachedInputPrice}
          hint="Empty: the input price."
        />
        <Field
          label="Output"
          name="outputPrice"
          inputMode="decimal"
          defaultValue={v?.outputPrice ?? model?.outputPrice ?? ""}
          error={f.outputPrice}
          hint="Reasoning counts as output. Empty: cost not counted."
        />
      </fieldset>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Capabilities</legend>
        <CheckboxField name="enabled" label="Enabled" defaultChecked={checked("enabled", model?.enabled ?? true)} />
        <CheckboxField name="vision" label="Vision" defaultChecked={checked("vision", model?.vision ?? false)} />
        <CheckboxField name="reasoning" label="Reasoning" defaultChecked={checked("reasoning", model?.reasoning ?? false)} />
        <CheckboxField
          name="webSearch"
          label="Web search"
          title={webSearchKind ? undefined : "Only OpenAI (Responses API) providers offer web search."}
          defaultChecked={checked("webSearch", model?.webSearch ?? false)}
          aria-invalid={f.webSearch ? true : undefined}
        />
      </fieldset>
      {f.webSearch && <p className="text-sm text-danger">{f.webSearch}</p>}
      <details open={Boolean(f.providerOptions || options)}>
        <summary className="cursor-pointer text-sm">Advanced: provider options (JSON)</summary>
        <Textarea
          name="providerOptions"
          rows={4}
          value={options}
          onChange={(e) => setOptions(e.target.value)}
          spellCheck={false}
          aria-label="Provider options (JSON)"
          aria-invalid={f.providerOptions ? true : undefined}
          placeholder='{"openai": {"reasoningEffort": "low"}}'
          className="mt-2 font-mono text-xs"
        />
        {f.providerOptions && <p className="text-sm text-danger">{f.providerOptions}</p>}
      </details>
      <SubmitButton className="self-start" pendingText="Saving…">
        {model ? "Save model" : "Add model"}
      </SubmitButton>
    </form>
  );
}
