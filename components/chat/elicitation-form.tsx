"use client";
// A question an MCP server asks during a tool call, inside the tool's block. Form mode: the fields the
// server generated from its schema (text with formats, numbers, yes/no, single and multiple choice),
// starting from the schema's defaults, with Submit, Decline and Cancel; a field that looks like it
// asks for a password or secret carries a warning. URL mode: the address and its domain, opened only
// when the member clicks. The server checks the answer again (app/api/elicitations).
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { ExternalLink, MessageCircleQuestion, TriangleAlert } from "lucide-react";
import type { ElicitationView } from "@/lib/mcp-chat/elicitations";
import type { ElicitField } from "@/lib/mcp/elicitation-schema";
import { Button } from "../ui/button";
import { FormField } from "../ui/field";
import { Input } from "../ui/input";
import { ApiError, fetchJson, serverMessage } from "../shared/fetch-json";

type Value = string | number | boolean | string[];
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, Value> };

const INPUT_TYPE = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" } as const;

function initialValues(fields: ElicitField[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of fields) {
    if (f.kind === "boolean") out[f.key] = f.default ?? false;
    else if (f.kind === "multi") out[f.key] = f.default ?? [];
    else if (f.kind === "number" || f.kind === "integer") out[f.key] = f.default === undefined ? "" : String(f.default);
    else if (f.kind === "string" && f.format === "date-time" && f.default) out[f.key] = f.default.slice(0, 16);
    else out[f.key] = f.default ?? "";
  }
  return out;
}

/** The form's values as the server expects them: numbers as numbers, empty optional fields left out. */
function contentOf(fields: ElicitField[], values: Record<string, Value>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (v === "" || v === undefined) continue;
    if (f.kind === "number" || f.kind === "integer") out[f.key] = Number(v);
    else if (f.kind === "string" && f.format === "date-time" && typeof v === "string") out[f.key] = new Date(v).toISOString();
    else out[f.key] = v;
  }
  return out;
}

function SecretWarning() {
  return (
    <p className="flex items-start gap-1 text-xs font-medium text-error" data-secret-warning>
      <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      This looks like a password or secret. Servers may not ask for those in a form: do not enter one here.
    </p>
  );
}

function FieldControl({ field, value, error, onChange }: { field: ElicitField; value: Value; error?: string; onChange: (v: Value) => void }) {
  const label = `${field.label}${field.required ? " (required)" : ""}`;
  const hint = field.description;
  if (field.kind === "boolean") {
    return (
      <div className="flex flex-col gap-1">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} className="size-4" />
          {label}
        </label>
        {hint && <p className="text-xs text-subtle">{hint}</p>}
        {error && <p className="text-sm text-danger">{error}</p>}
      </div>
    );
  }
  if (field.kind === "multi") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="flex flex-col gap-1" aria-invalid={error ? true : undefined}>
        <legend className="text-sm font-medium">{label}</legend>
        {hint && <p className="text-xs text-subtle">{hint}</p>}
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {field.options.map((o) => (
            <label key={o.value} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={chosen.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))}
              />
              {o.label}
            </label>
          ))}
        </div>
        {error && <p className="text-sm text-danger">{error}</p>}
      </fieldset>
    );
  }
  return (
    <FormField label={label} hint={hint} error={error}>
      {(control) =>
        field.kind === "enum" ? (
          <select
            {...control}
            value={String(value)}
            onChange={(e) => onChange(e.target.value)}
            className="h-10 rounded-md border border-line-strong bg-surface px-2 text-sm"
          >
            {!field.required && <option value="">—</option>}
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <Input
            {...control}
            type={field.kind === "string" ? (field.format ? INPUT_TYPE[field.format] : "text") : "number"}
            step={field.kind === "integer" ? 1 : field.kind === "number" ? "any" : undefined}
            min={field.kind === "number" || field.kind === "integer" ? field.minimum : undefined}
            max={field.kind === "number" || field.kind === "integer" ? field.maximum : undefined}
            maxLength={field.kind === "string" ? field.maxLength : undefined}
            autoComplete="off"
            value={String(value)}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </FormField>
  );
}

type FormState = { values: Record<string, Value>; errors: Record<string, string>; problem?: string; sent?: Answer["action"] };

/**
 * The form's state by question, outside React: a reloaded page's replay rebuilds the tool block part by
 * part, so the form can be mounted again at any moment (even between a keystroke and its render). What
 * was typed, the server's verdict and whether it was sent live here, shown alike by every mounted copy.
 */
const kept = new Map<string, FormState>();
const keptFocus = new Map<string, number>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

function useKeptForm(id: string, fields: ElicitField[]) {
  const [initial] = useState<FormState>(() => ({ values: initialValues(fields), errors: {} }));
  const current = useCallback(() => kept.get(id) ?? initial, [id, initial]);
  const state = useSyncExternalStore(subscribe, current, current);
  const update = useCallback(
    (change: (old: FormState) => Partial<FormState>) => {
      const old = current();
      kept.set(id, { ...old, ...change(old) });
      for (const listener of listeners) listener();
    },
    [id, current],
  );
  return [state, update] as const;
}

const FOCUSABLE = "input, select, textarea, button";

/** Puts the focus back on the control that had it when the form was taken away by a rebuild. */
function useFocusKept(id: string, root: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const at = keptFocus.get(id);
    const active = document.activeElement;
    if (at === undefined || !root.current || (active && active !== document.body)) return;
    root.current.querySelectorAll<HTMLElement>(FOCUSABLE)[at]?.focus();
  }, [id, root]);
  return {
    onFocus: (e: React.FocusEvent<HTMLDivElement>) => {
      const at = [...e.currentTarget.querySelectorAll(FOCUSABLE)].indexOf(e.target);
      if (at >= 0) keptFocus.set(id, at);
    },
    // Leaving the form forgets the place; a control taken out of the page with it does not.
    onBlur: (e: React.FocusEvent<HTMLDivElement>) => {
      if (e.target.isConnected && !e.currentTarget.contains(e.relatedTarget)) keptFocus.delete(id);
    },
  };
}

export function ElicitationForm({ view, serverName }: { view: ElicitationView; serverName?: string }) {
  const fields = view.fields ?? [];
  const [{ values, errors, problem, sent }, update] = useKeptForm(view.id, fields);
  const root = useRef<HTMLDivElement>(null);
  const focusKeeping = useFocusKept(view.id, root);
  const [busy, setBusy] = useState(false);
  const who = serverName ? `“${serverName}”` : "The server";

  async function answer(a: Answer) {
    setBusy(true);
    update(() => ({ problem: undefined }));
    try {
      await fetchJson(`/api/elicitations/${encodeURIComponent(view.id)}`, { method: "POST", body: a });
      update(() => ({ sent: a.action }));
    } catch (err) {
      if (err instanceof ApiError && err.unreachable) return update(() => ({ problem: "The answer could not be sent. Check the connection and try again." }));
      update(() => ({ errors: err instanceof ApiError ? (err.fields ?? {}) : {}, problem: serverMessage(err) ?? "The answer could not be sent." }));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <p role="status" className="text-sm text-soft">
        {sent === "accept"
          ? view.mode === "url"
            ? "Opened. Waiting for the server…"
            : "Answer sent. Waiting for the server…"
          : sent === "decline"
            ? "Declined."
            : "Cancelled."}
      </p>
    );
  }
  const actions = (
    <>
      <Button variant="secondary" size="sm" disabled={busy} onClick={() => answer({ action: "decline" })}>
        Decline
      </Button>
      <Button variant="ghost" size="sm" disabled={busy} onClick={() => answer({ action: "cancel" })}>
        Cancel
      </Button>
    </>
  );
  return (
    <div
      role="group"
      aria-label="The server asks"
      className="flex flex-col gap-3 rounded-md border border-info-line bg-info-soft p-3"
      data-elicitation={view.mode}
      ref={root}
      {...focusKeeping}
    >
      <p className="flex items-start gap-1.5 text-sm font-medium text-on-info-soft">
        <MessageCircleQuestion className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          {who} asks: <span className="font-normal whitespace-pre-wrap">{view.message}</span>
        </span>
      </p>
      {view.mode === "url" ? (
        <>
          <div className="rounded border border-info-line bg-surface p-2 text-sm">
            <p>
              Opens <strong className="font-mono text-base">{view.domain}</strong>
            </p>
            <p className="font-mono text-xs break-all text-subtle">{view.url}</p>
            <p className="mt-1 text-xs text-subtle">What you enter there goes to that site, not to Parley.</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              disabled={busy}
              onClick={() => {
                window.open(view.url, "_blank", "noopener,noreferrer");
                void answer({ action: "accept" });
              }}
            >
              <ExternalLink className="size-4" aria-hidden /> Open {view.domain}
            </Button>
            {actions}
          </div>
        </>
      ) : (
        <form
          className="flex flex-col gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void answer({ action: "accept", content: contentOf(fields, values) });
          }}
        >
          {fields.map((f) => (
            <div key={f.key} className="flex flex-col gap-1">
              <FieldControl
                field={f}
                value={values[f.key]}
                error={errors[f.key]}
                onChange={(v) => update((old) => ({ values: { ...old.values, [f.key]: v } }))}
              />
              {f.secretLike && <SecretWarning />}
            </div>
          ))}
          {view.unsupported?.length ? <p className="text-xs text-subtle">Not shown (Parley cannot ask for these): {view.unsupported.join(", ")}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              Submit
            </Button>
            {actions}
          </div>
        </form>
      )}
      {problem && (
        <p role="alert" className="text-sm text-danger">
          {problem}
        </p>
      )}
    </div>
  );
}
