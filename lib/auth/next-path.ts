// Where to go after signing in: only a path on this site. The value is parsed as a URL against a
// placeholder origin, the way a browser would read it (tabs and newlines dropped, backslashes as
// slashes, dot segments resolved); anything that lands on another origin is refused, and the path is
// written back with one leading slash, so `//host` can never be read as another host.
const BASE = "http://parley.invalid";

const DEFAULT_NEXT = "/chat";

export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== BASE) return DEFAULT_NEXT;
  const path = `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}${url.hash}`;
  // Parsed again, the result must still be a path here.
  return new URL(path, BASE).origin === BASE ? path : DEFAULT_NEXT;
}
