// What proxy.ts refuses before Next.js routes a request: a path whose percent-encoding is broken or
// carries a NUL byte (400), and a state-changing request sent by a page of another origin (403, the
// CSRF check: same-site pages on another port get SameSite=Lax cookies, so the cookie alone proves
// nothing). Pure functions over the request's method, URL and headers, so they are unit-tested.

export type Refusal = { status: number; code: string; message: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The raw path (before any decoding) is refused when a %-escape is broken, decodes to invalid UTF-8 or to NUL. */
export function pathProblem(rawPath: string): Refusal | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { status: 400, code: "MalformedUrl", message: "The address has malformed percent-encoding." };
  }
  if (decoded.includes("\0")) return { status: 400, code: "MalformedUrl", message: "The address contains a NUL byte." };
  return undefined;
}

/** The path part of a request target, exactly as sent (no decoding, no normalisation). */
export function rawPathOf(url: string): string {
  const start = url.indexOf("//") >= 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.indexOf("/", url.indexOf("//") + 2) : 0;
  const path = start < 0 ? "/" : url.slice(start);
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}

export type OriginInput = {
  method: string;
  /** The Host header the request came with. */
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  /** The operator's public URL (PARLEY_URL), if set. */
  publicUrl?: string;
};

/**
 * A state-changing request (anything but GET/HEAD/OPTIONS) must come from the app's own origin: the
 * Origin header's host equals the Host header (the origin the browser opened), or is the public URL's,
 * or, with no public URL, is a loopback name on the same port. Without Origin, Sec-Fetch-Site must say
 * same-origin (or none: typed by the user). A request with neither comes from no browser, so it carries
 * no one's cookies but its sender's own, and passes.
 */
export function crossOriginProblem(req: OriginInput): Refusal | undefined {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return undefined;
  const refused = (why: string): Refusal => ({ status: 403, code: "CrossOrigin", message: `Refused: ${why}.` });
  if (req.origin !== null) {
    if (req.origin === "null") return refused("the request comes from an opaque origin");
    return ownOrigin(req.origin, req.host, req.publicUrl) ? undefined : refused("the request comes from another site or port");
  }
  const site = req.secFetchSite?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return refused(`the request is ${site}`);
  return undefined;
}

function ownOrigin(origin: string, host: string | null, publicUrl?: string): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.protocol !== "http:" && o.protocol !== "https:") return false;
  if (publicUrl && sameOrigin(o, publicUrl)) return true;
  if (!host) return false;
  const hostLower = host.toLowerCase();
  if (o.host === hostLower) return true;
  if (publicUrl) return false;
  // No public URL: localhost, 127.0.0.1 and [::1] on the server's own port are one app.
  const at = hostLower.lastIndexOf(":");
  const hostName = at > 0 && !hostLower.endsWith("]") ? hostLower.slice(0, at) : hostLower;
  const hostPort = at > 0 && !hostLower.endsWith("]") ? hostLower.slice(at + 1) : "";
  return LOOPBACK.has(hostName) && LOOPBACK.has(o.hostname) && o.port === hostPort;
}

function sameOrigin(o: URL, url: string): boolean {
  try {
    return new URL(url).origin === o.origin;
  } catch {
    return false;
  }
}
