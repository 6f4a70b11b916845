// The form of an elicitation: the requested schema (MCP's restricted JSON Schema — a flat object of
// strings with formats, numbers, integers, booleans, single- and multi-select enums with or without
// titles) read into fields the browser renders, and the check of an answer against it on the server
// (types, formats, ranges, lengths, options, required fields; omitted fields take their defaults).
// Fields whose name or description asks for a password or secret are flagged: MCP forbids servers to
// ask for those in a form, and the form warns. A number field is flagged only for a number that is a
// secret itself (a PIN, a card number), not for "Max tokens" or "Password length".

export type FieldOption = { value: string; label: string };

export type ElicitField = {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  /** Looks like a request for a password, token or other secret. */
  secretLike: boolean;
} & (
  | { kind: "string"; format?: "email" | "uri" | "date" | "date-time"; minLength?: number; maxLength?: number; default?: string }
  | { kind: "number" | "integer"; minimum?: number; maximum?: number; default?: number }
  | { kind: "boolean"; default?: boolean }
  | { kind: "enum"; options: FieldOption[]; default?: string }
  | { kind: "multi"; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
);

export type ElicitForm = { fields: ElicitField[]; unsupported: string[] };

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const FORMATS = ["email", "uri", "date", "date-time"] as const;
const SECRET = /pass(word|phrase|code)?\b|passwd|secret|api[\s_-]?key|token|credential|private[\s_-]?key|\bpin\b|\bcvv\b|\bcvc\b|card[\s_-]?number|\bssn\b/i;
/** A number asked for can be a secret only as one of these (a count of tokens or a password's length is not). */
const SECRET_NUMBER = /passcode|\bpin\b|\bcvv\b|\bcvc\b|card[\s_-]?number|\bssn\b/i;

/** The options of a single-select field: `enum` (with legacy `enumNames`) or `oneOf` of `{const, title}`. */
function singleOptions(s: Schema): FieldOption[] | undefined {
  if (Array.isArray(s.oneOf)) {
    const opts = s.oneOf.filter(isObject).filter((o) => typeof o.const === "string");
    return opts.map((o) => ({ value: o.const as string, label: str(o.title) ?? (o.const as string) }));
  }
  if (Array.isArray(s.enum)) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.filter((v): v is string => typeof v === "string").map((v, i) => ({ value: v, label: str(names[i]) ?? v }));
  }
  return undefined;
}

/** The options of a multi-select field: `items.enum` or `items.anyOf` of `{const, title}`. */
function multiOptions(s: Schema): FieldOption[] | undefined {
  const items = isObject(s.items) ? s.items : undefined;
  if (!items) return undefined;
  const list = Array.isArray(items.anyOf) ? items.anyOf : Array.isArray(items.oneOf) ? items.oneOf : undefined;
  if (list)
    return list
      .filter(isObject)
      .filter((o) => typeof o.const === "string")
      .map((o) => ({ value: o.const as string, label: str(o.title) ?? (o.const as string) }));
  if (Array.isArray(items.enum)) return items.enum.filter((v): v is string => typeof v === "string").map((v) => ({ value: v, label: v }));
  return undefined;
}

/** The fields of a requested schema, in its order; properties Parley cannot render are listed as unsupported. */
export function formOf(schema: unknown): ElicitForm {
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : []);
  const fields: ElicitField[] = [];
  const unsupported: string[] = [];
  for (const [key, raw] of Object.entries(props)) {
    if (!isObject(raw)) {
      unsupported.push(key);
      continue;
    }
    const label = str(raw.title) ?? key;
    const description = str(raw.description);
    const type = raw.type;
    const words = `${key} ${label} ${description ?? ""}`;
    // A tick box or a list of options holds no typed secret.
    const secretLike = type === "string" ? SECRET.test(words) : type === "number" || type === "integer" ? SECRET_NUMBER.test(words) : false;
    const base = { key, label, description, required: required.has(key), secretLike };
    if (type === "string") {
      const options = singleOptions(raw);
      if (options) {
        fields.push({ ...base, kind: "enum", options, default: str(raw.default) });
        continue;
      }
      const format = FORMATS.find((f) => f === raw.format);
      fields.push({ ...base, kind: "string", format, minLength: num(raw.minLength), maxLength: num(raw.maxLength), default: str(raw.default) });
    } else if (type === "number" || type === "integer") {
      fields.push({ ...base, kind: type, minimum: num(raw.minimum), maximum: num(raw.maximum), default: num(raw.default) });
    } else if (type === "boolean") {
      fields.push({ ...base, kind: "boolean", default: typeof raw.default === "boolean" ? raw.default : undefined });
    } else if (type === "array") {
      const options = multiOptions(raw);
      if (!options) {
        unsupported.push(key);
        continue;
      }
      const def = Array.isArray(raw.default) ? raw.default.filter((v): v is string => typeof v === "string") : undefined;
      fields.push({ ...base, kind: "multi", options, minItems: num(raw.minItems), maxItems: num(raw.maxItems), default: def });
    } else unsupported.push(key);
  }
  return { fields, unsupported };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

function validDate(s: string): boolean {
  const d = new Date(DATE.test(s) ? `${s}T00:00:00Z` : s);
  return !Number.isNaN(d.getTime()) && (!DATE.test(s) || d.toISOString().startsWith(s));
}

function formatError(format: string | undefined, v: string): string | undefined {
  if (!format || v === "") return undefined;
  if (format === "email" && !EMAIL.test(v)) return "Enter an email address.";
  if (format === "uri") {
    try {
      new URL(v);
    } catch {
      return "Enter a full address (with https://).";
    }
  }
  if (format === "date" && !(DATE.test(v) && validDate(v))) return "Enter a date (YYYY-MM-DD).";
  if (format === "date-time" && !(DATE_TIME.test(v) && validDate(v))) return "Enter a date and time.";
  return undefined;
}

/** One field's value checked: the error, or undefined when it is fine. */
function fieldError(f: ElicitField, v: unknown): string | undefined {
  switch (f.kind) {
    case "string": {
      if (typeof v !== "string") return "Enter text.";
      if (f.minLength !== undefined && v.length < f.minLength) return `At least ${f.minLength} characters.`;
      if (f.maxLength !== undefined && v.length > f.maxLength) return `At most ${f.maxLength} characters.`;
      return formatError(f.format, v);
    }
    case "number":
    case "integer": {
      if (typeof v !== "number" || !Number.isFinite(v)) return "Enter a number.";
      if (f.kind === "integer" && !Number.isInteger(v)) return "Enter a whole number.";
      if (f.minimum !== undefined && v < f.minimum) return `At least ${f.minimum}.`;
      if (f.maximum !== undefined && v > f.maximum) return `At most ${f.maximum}.`;
      return undefined;
    }
    case "boolean":
      return typeof v === "boolean" ? undefined : "Choose yes or no.";
    case "enum":
      return typeof v === "string" && f.options.some((o) => o.value === v) ? undefined : "Choose one of the options.";
    case "multi": {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !f.options.some((o) => o.value === x))) return "Choose from the options.";
      if (new Set(v).size !== v.length) return "Choose each option once.";
      if (f.minItems !== undefined && v.length < f.minItems) return `Choose at least ${f.minItems}.`;
      if (f.maxItems !== undefined && v.length > f.maxItems) return `Choose at most ${f.maxItems}.`;
      return undefined;
    }
  }
}

export type AnswerCheck = { ok: true; content: Record<string, string | number | boolean | string[]> } | { ok: false; errors: Record<string, string> };

/**
 * An accepted form's content checked against the requested schema: unknown keys are refused, omitted
 * fields take their defaults, required fields without a value are errors. Returns the content to send.
 */
export function checkAnswer(schema: unknown, content: unknown): AnswerCheck {
  if (!isObject(content)) return { ok: false, errors: { _form: "The answer must be an object." } };
  const { fields } = formOf(schema);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const errors: Record<string, string> = {};
  for (const key of Object.keys(content)) if (!byKey.has(key)) errors[key] = "This field was not asked for.";
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const f of fields) {
    let v = content[f.key];
    if (v === undefined || v === null || (v === "" && f.kind === "string" && f.required)) v = f.default;
    if (v === undefined || v === null || v === "") {
      if (f.required) errors[f.key] = "Required.";
      continue;
    }
    const err = fieldError(f, v);
    if (err) errors[f.key] = err;
    else out[f.key] = v as string | number | boolean | string[];
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content: out };
}
