// Where the links in emails point. PARLEY_URL when the operator set it. Without it, an admin's own
// request says where the app is (the links an admin copies are made the same way); a request from
// someone not signed in ("Forgot password?") is trusted only for a loopback address, so a forged Host
// header can never put an attacker's site into a reset email.
import { publicUrl } from "../config";

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** The app's address as an admin's request shows it (PARLEY_URL first). */
export function requestBaseUrl(headers: Headers): string {
  const configured = publicUrl();
  if (configured) return configured;
  const host = headers.get("host") ?? "localhost:3000";
  const proto = headers.get("x-forwarded-proto") === "https" ? "https" : "http";
  return `${proto}://${host}`;
}

/** The app's address for a link sent on an anonymous request: PARLEY_URL, a loopback Host, or none. */
export function trustedBaseUrl(headers: Headers): string | null {
  const configured = publicUrl();
  if (configured) return configured;
  const host = headers.get("host") ?? "";
  return LOOPBACK.test(host) ? `http://${host.toLowerCase()}` : null;
}
