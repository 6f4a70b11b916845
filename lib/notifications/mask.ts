// Secrets never leave in a notification: a tool call's arguments are masked before they are stored in
// an event (and so before any webhook or email carries them): every value under a secret-looking key,
// and string values that look like credentials wherever they are (bearer tokens, well-known key formats).
const SECRET_KEY = /pass(word|phrase)?|secret|token|api[-_]?key|^key$|auth|cookie|credential|signature|private/i;
const SECRET_VALUE =
  /^(bearer|basic)\s+\S{8,}|^(sk|pk|rk)[-_][A-Za-z0-9_-]{12,}|^gh[pousr]_[A-Za-z0-9]{20,}|^xox[abpr]-|^AKIA[0-9A-Z]{16}$|^eyJ[\w-]{10,}\.[\w-]{10,}\./i;
export const MASK = "••••";

/** `value` with secret-looking values replaced by MASK (nested objects and arrays too). */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value.trim()) ? MASK : value;
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && v !== null && v !== "" && typeof v !== "boolean" ? MASK : maskSecrets(v, depth + 1)]),
  );
}
