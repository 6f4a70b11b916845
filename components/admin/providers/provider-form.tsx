"use client";
// Add or edit a provider. The key and headers are write-only: the form shows the stored key masked and
// an empty key field keeps it. "Test connection" tries the values in the form without saving them and
// shows the result (or the provider's own error) next to the buttons.
import { useActionState, useState } from "react";
import { Loader2, PlugZap } from "lucide-react";
import { initialActionState, type ActionState } from "@/components/ui/form-state";
import type { ProviderView } from "@/lib/providers/admin";
import type { KindInfo } from "@/lib/providers/kinds";
import type { FormAction } from "@/components/ui/action-form";
import { CheckboxField, Field, FormField, FormMessage, TextareaField } from "../../ui/field";
import { OptionSelect } from "../../ui/select";
import { Button } from "../../ui/button";
import { SubmitButton } from "../../ui/submit-button";

export function ProviderForm({
  provider,
  kinds,
  save,
  test,
  suggestion,
}: {
  provider?: ProviderView;
  kinds: KindInfo[];
  save: FormAction;
  test: FormAction;
  /** A local server that answers now, offered to fill in. */
  suggestion?: { name: string; baseUrl: string };
}) {
  // Key and headers are controlled so that "Test connection" (a form action: React resets uncontrolled
  // fields after it) keeps them; a successful save empties them again (they are write-only).
  const [apiKey, setApiKey] = useState("");
  const [headers, setHeaders] = useState("");
  const [state, saveAction] = useActionState(async (prev: ActionState, form: FormData) => {
    const result = await save(prev, form);
    if (result.ok) {
      setApiKey("");
      setHeaders("");
    }
    return result;
  }, initialActionState);
  const [testState, testAction, testing] = useActionState(test, initialActionState);
  const v = state.values;
  const [kind, setKind] = useState(v?.kind ?? provider?.kind ?? "openai_compatible");
  const [name, setName] = useState(v?.name ?? provider?.name ?? "");
  const [baseUrl, setBaseUrl] = useState(v?.baseUrl ?? provider?.baseUrl ?? "");
  const info = kinds.find((k) => k.kind === kind);
  const f = state.fields ?? {};
  return (
    <form action={saveAction} className="flex flex-col gap-4" aria-label={provider ? "Edit provider" : "New provider"} noValidate>
      {provider && <input type="hidden" name="providerId" value={provider.id} />}
      <FormMessage message={state.message} ok={state.ok} />
      {suggestion && !provider && (
        <p className="flex flex-wrap items-center gap-2 rounded-md bg-info-soft px-3 py-2 text-sm text-on-info-soft">
          {suggestion.name} answers at {suggestion.baseUrl}.
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              setKind("openai_compatible");
              setBaseUrl(suggestion.baseUrl);
              if (!name) setName(suggestion.name);
            }}
          >
            Use it
          </Button>
        </p>
      )}
      <Field label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={f.name} required maxLength={100} />
      <FormField label="Kind" error={f.kind}>
        {(control) => (
          <OptionSelect
            {...control}
            name="kind"
            value={kind}
            onValueChange={(k) => setKind(k as typeof kind)}
            options={kinds.map((k) => ({ value: k.kind, label: k.label }))}
          />
        )}
      </FormField>
      <Field
        label="Base URL"
        name="baseUrl"
        type="url"
        value={baseUrl}
        onChange={(e) => setBaseUrl(e.target.value)}
        error={f.baseUrl}
        hint={info?.hint}
        placeholder={info?.defaultBaseUrl}
      />
      <div className="flex flex-col gap-1">
        <Field
          label="API key"
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          error={f.apiKey}
          placeholder={provider?.apiKeyHint ? `${provider.apiKeyHint} (stored)` : "Optional for local servers"}
          hint={
            provider?.apiKeyHint
              ? `Stored key: ${provider.apiKeyHint}. Leave empty to keep it; a base URL on another server needs the key again.`
              : "Stored encrypted; never shown again."
          }
        />
        {provider?.apiKeyHint && <CheckboxField name="clearApiKey" label="Remove the stored key" />}
      </div>
      <div className="flex flex-col gap-1">
        <TextareaField
          label="Extra headers"
          name="headers"
          rows={2}
          value={headers}
          onChange={(e) => setHeaders(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          error={f.headers}
          hint={`One "Name: value" per line. Stored encrypted.${provider?.headerNames.length ? " Leave empty to keep the stored headers." : ""}`}
          placeholder={provider?.headerNames.length ? `${provider.headerNames.join(", ")} (stored; values hidden)` : "HTTP-Referer: https://chat.example.com"}
          className="[&_textarea]:font-mono"
        />
        {provider && provider.headerNames.length > 0 && <CheckboxField name="clearHeaders" label="Remove the stored headers" />}
      </div>
      <CheckboxField name="enabled" label="Enabled" defaultChecked={v ? v.enabled === "on" : (provider?.enabled ?? true)} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pendingText="Saving…">{provider ? "Save provider" : "Add provider"}</SubmitButton>
        <Button type="submit" variant="secondary" formAction={testAction} disabled={testing} aria-busy={testing || undefined}>
          {testing ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <PlugZap className="size-4" aria-hidden />}
          Test connection
        </Button>
      </div>
      <div aria-live="polite" data-testid="connection-result">
        <FormMessage
          message={!testing && testState.message ? `${testState.ok ? "Connection works. " : "Connection failed: "}${testState.message}` : undefined}
          ok={testState.ok}
        />
      </div>
    </form>
  );
}
