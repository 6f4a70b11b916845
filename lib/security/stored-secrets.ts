// Write-only secrets (provider keys and headers, MCP tokens, headers and environments), the one
// place their two rules live:
// - a stored secret is sent only to the origin (scheme, host, port) it was saved for: it is sealed
//   bound to that origin (keyring v2), and opening it for another target refuses;
// - an empty form field keeps the stored secret, a new value replaces it, "clear" removes it; but
//   when the URL now points to another origin, the secret must be entered again (or cleared).
// Legacy unbound ciphertexts (v1) count as bound to the URL of the row they are stored in.
import { AppError, Invalid } from "../errors";
import { decryptSecret, encryptSecret, openSecret } from "./keyring";

/** The target of a stdio server's environment: a local process, not a network origin. */
export const STDIO_TARGET = "stdio";

/** What a secret is bound to: the origin of a URL, or the stdio target; null for no usable URL. */
function bindingOf(target: string | null | undefined): string | null {
  if (!target) return null;
  if (target === STDIO_TARGET) return STDIO_TARGET;
  try {
    const origin = new URL(target).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

export class SecretOriginError extends AppError {
  constructor(what = "A stored secret") {
    super(
      "SecretOrigin",
      409,
      `${what} was saved for another server than the one this request would go to, so Parley does not send it. Enter it again for the new address.`,
    );
  }
}

/** Encrypts a secret bound to the origin of `target` (a URL, or STDIO_TARGET). */
export function sealSecret(plaintext: string, target: string): string {
  const binding = bindingOf(target);
  if (!binding) throw Invalid("A secret needs a valid URL to be saved for.");
  return encryptSecret(plaintext, binding);
}

export function sealJsonSecret(value: unknown, target: string): string {
  return sealSecret(JSON.stringify(value), target);
}

/** Where a stored secret may go: its binding, or (legacy v1) the origin of the row's URL. */
function storedBinding(enc: string, savedFor: string | null | undefined): { plaintext: string; binding: string | null } {
  const { plaintext, binding } = openSecret(enc);
  return { plaintext, binding: binding ?? bindingOf(savedFor) };
}

/**
 * A stored secret, decrypted to be sent to `target`. Refuses (SecretOriginError) when it was saved for
 * another origin. `savedFor` is the URL of the row that stores it (used for legacy ciphertexts only).
 */
export function openSecretFor(enc: string | null | undefined, target: string, savedFor: string | null = target, what?: string): string | undefined {
  if (!enc) return undefined;
  const { plaintext, binding } = storedBinding(enc, savedFor);
  if (!binding || binding !== bindingOf(target)) throw new SecretOriginError(what);
  return plaintext;
}

export function openJsonSecretFor<T>(enc: string | null | undefined, target: string, savedFor: string | null = target, what?: string): T | undefined {
  const text = openSecretFor(enc, target, savedFor, what);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

/** A stored JSON secret, on the server only, for what is not sent anywhere (names for a masked view). */
export function readJsonSecret<T>(enc: string | null | undefined): T | undefined {
  return enc ? (JSON.parse(decryptSecret(enc)) as T) : undefined;
}

/** Whether a stored secret would now go to another origin than the one it was saved for. */
export function secretMoved(enc: string | null | undefined, savedFor: string | null | undefined, target: string | null | undefined): boolean {
  if (!enc) return false;
  const { binding } = storedBinding(enc, savedFor);
  return !binding || binding !== bindingOf(target);
}

const MOVED_MESSAGE =
  "The address now points to another server: enter this secret again, or clear it. A stored secret is only sent to the server it was saved for.";

/**
 * The write-only rule for one secret field. `entered` is the new value (undefined when the field was
 * left empty), `stored` the current one. Returns the value to keep or store, or undefined for none;
 * refuses with a field error when the stored value would be kept for another origin (`moved`).
 */
export function writeOnly<T>(field: string, entered: T | undefined, opts: { clear: boolean; stored: T | undefined; moved: boolean }): T | undefined {
  if (entered !== undefined) return entered;
  if (opts.clear || opts.stored === undefined) return undefined;
  if (opts.moved) throw Invalid(MOVED_MESSAGE, { [field]: MOVED_MESSAGE });
  return opts.stored;
}
