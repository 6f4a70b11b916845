"use client";
// Edit before approving: a form generated from the tool's input schema for what a form can show
// (text, numbers, yes/no, a choice from a list, at the top level of the input), and a JSON editor for
// everything (always there, and the only editor when the schema has nothing a form can show). The
// server checks the edited input against the schema; this only helps a person get it right.
import { useId, useState } from "react";
import { Check, X } from "lucide-react";
import { Button } from "../ui/button";
import { Input, Textarea } from "../ui/input";

type Prop = { type?: string | string[]; enum?: unknown[]; description?: string; title?: string };
type Schema = { properties?: Record<string, Prop>; required?: string[] };

const simpleType = (p: Prop) => (Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type);
const formable = (p: Prop) => !!p.enum?.every((v) => typeof v === "string") || ["string", "number", "integer", "boolean"].includes(simpleType(p) ?? "");

/** The top-level fields a form can show. */
function formFields(schema: unknown): [string, Prop][] {
  const props = (schema as Schema | null)?.properties;
  return props && typeof props === "object" ? Object.entries(props).filter(([, p]) => p && typeof p === "object" && formable(p)) : [];
}

export function InputEditor({
  schema,
  input,
  onSubmit,
  onCancel,
  busy,
}: {
  schema: unknown;
  input: unknown;
  onSubmit: (input: Record<string, unknown>) => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const id = useId();
  const fields = formFields(schema);
  const required = new Set((schema as Schema | null)?.required ?? []);
  const [value, setValue] = useState<Record<string, unknown>>(() =>
    input && typeof input === "object" && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {},
  );
  const [json, setJson] = useState(() => JSON.stringify(value, null, 2));
  const [jsonError, setJsonError] = useState<string>();

  const set = (key: string, v: unknown) => {
    const next = { ...value };
    if (v === undefined) delete next[key];
    else next[key] = v;
    setValue(next);
    setJson(JSON.stringify(next, null, 2));
  };
  const onJson = (text: string) => {
    setJson(text);
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("The input must be a JSON object.");
      setValue(parsed as Record<string, unknown>);
      setJsonError(undefined);
    } catch (err) {
      setJsonError(err instanceof SyntaxError ? "Not valid JSON yet." : (err as Error).message);
    }
  };

  return (
    <form
      className="flex flex-col gap-2 rounded-md border border-line-strong p-3"
      aria-label="Edit the input"
      onSubmit={(e) => {
        e.preventDefault();
        if (!jsonError) onSubmit(value);
      }}
    >
      {fields.map(([key, p]) => {
        const fieldId = `${id}-${key}`;
        const type = simpleType(p);
        const label = `${p.title ?? key}${required.has(key) ? "" : " (optional)"}`;
        if (type === "boolean")
          return (
            <label key={key} className="flex items-center gap-2 text-xs">
              <input type="checkbox" className="accent-accent" checked={value[key] === true} onChange={(e) => set(key, e.target.checked)} /> {label}
            </label>
          );
        if (p.enum)
          return (
            <label key={key} htmlFor={fieldId} className="flex flex-col gap-1 text-xs">
              {label}
              <select
                id={fieldId}
                className="rounded-md border border-line-strong bg-surface px-2 py-1 text-sm"
                value={String(value[key] ?? "")}
                onChange={(e) => set(key, e.target.value || undefined)}
              >
                <option value="">—</option>
                {p.enum.map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </select>
            </label>
          );
        const numeric = type === "number" || type === "integer";
        return (
          <label key={key} htmlFor={fieldId} className="flex flex-col gap-1 text-xs">
            {label}
            <Input
              id={fieldId}
              size="sm"
              type={numeric ? "number" : "text"}
              step={type === "integer" ? 1 : "any"}
              value={value[key] === undefined || value[key] === null ? "" : String(value[key])}
              onChange={(e) => set(key, e.target.value === "" ? undefined : numeric ? Number(e.target.value) : e.target.value)}
            />
            {p.description && <span className="text-subtle">{p.description}</span>}
          </label>
        );
      })}
      <label htmlFor={`${id}-json`} className="flex flex-col gap-1 text-xs">
        {fields.length ? "The whole input as JSON" : "Input (JSON)"}
        <Textarea
          id={`${id}-json`}
          className="font-mono text-xs"
          rows={Math.min(12, json.split("\n").length + 1)}
          value={json}
          onChange={(e) => onJson(e.target.value)}
          aria-invalid={jsonError ? true : undefined}
          aria-describedby={jsonError ? `${id}-json-error` : undefined}
        />
        {jsonError && (
          <span id={`${id}-json-error`} className="text-error">
            {jsonError}
          </span>
        )}
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="success" size="sm" disabled={busy || !!jsonError}>
          <Check className="size-4" aria-hidden /> Approve with changes
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={busy}>
          <X className="size-4" aria-hidden /> Cancel
        </Button>
      </div>
    </form>
  );
}

/** The original and the edited input side by side, changed top-level fields marked. */
export function InputDiff({ original, edited }: { original: unknown; edited: unknown }) {
  const a = (original ?? {}) as Record<string, unknown>;
  const b = (edited ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const show = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));
  return (
    <table className="w-full table-fixed text-left text-xs" aria-label="Input changed before approval">
      <thead>
        <tr className="text-subtle">
          <th className="w-1/4 font-medium">Field</th>
          <th className="font-medium">The model asked for</th>
          <th className="font-medium">Ran with</th>
        </tr>
      </thead>
      <tbody className="font-mono">
        {keys.map((k) => {
          const changed = show(a[k]) !== show(b[k]);
          return (
            <tr key={k} data-changed={changed || undefined}>
              <td className="break-all py-0.5 pr-2">{k}</td>
              <td className={`break-all py-0.5 pr-2 ${changed ? "bg-error-soft text-on-error-soft line-through" : ""}`}>{show(a[k])}</td>
              <td className={`break-all py-0.5 ${changed ? "bg-success-soft text-on-success-soft" : ""}`}>{show(b[k])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
