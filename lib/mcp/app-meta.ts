// MCP Apps (SEP-1865), what the server side of the host reads: which `ui://` view a tool declares
// (`_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`, read by the ext-apps package),
// whether a tool is for its app only (never offered to the model) or the model only (a view may not call
// it), the capability Parley advertises,
// and the Content-Security-Policy a view is served with: an opaque origin (`sandbox allow-scripts`),
// inline script and style only, and nothing remote unless the resource declares https/wss origins.
import { getToolUiResourceUri, isToolVisibilityAppOnly, isToolVisibilityModelOnly, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Tool } from "@modelcontextprotocol/client";

export { RESOURCE_MIME_TYPE };

/** The client capability (extensions) saying Parley renders MCP Apps views. */
export const APPS_EXTENSION = { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } };

/** The `ui://` URI of a tool's view, or undefined (none, or not a `ui://` URI). */
export function toolAppUri(tool: Partial<Tool>): string | undefined {
  try {
    const uri = getToolUiResourceUri(tool);
    return uri && uri.startsWith("ui://") && uri.length <= 2000 ? uri : undefined;
  } catch {
    return undefined; // declared but not a ui:// URI: no view
  }
}

/** A tool its server meant for its app only (`_meta.ui.visibility: ["app"]`): not offered to the model. */
export function toolIsAppOnly(tool: Partial<Tool>): boolean {
  try {
    return isToolVisibilityAppOnly(tool);
  } catch {
    return false;
  }
}

/** A tool its server meant for the model only (`_meta.ui.visibility: ["model"]`): a view may not call it. */
export function toolIsModelOnly(tool: Partial<Tool>): boolean {
  try {
    return isToolVisibilityModelOnly(tool);
  } catch {
    return false;
  }
}

/** Whether a resource's MIME type is an MCP Apps view (`text/html;profile=mcp-app`, spaces aside). */
export function isAppMimeType(mimeType: string | undefined): boolean {
  return !!mimeType && mimeType.toLowerCase().replace(/\s+/g, "") === RESOURCE_MIME_TYPE;
}

type ResourceCsp = { connectDomains?: unknown; resourceDomains?: unknown };

// An origin a view may name: https or wss, a host (optionally `*.` for subdomains), an optional port.
const ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const MAX_ORIGINS = 20;

function origins(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((o): o is string => typeof o === "string" && ORIGIN.test(o)).slice(0, MAX_ORIGINS);
}

/**
 * The policy a view's page is served with. `sandbox allow-scripts` gives the page an opaque origin even
 * when opened on its own; `frame-ancestors 'self'` lets only Parley's pages frame it. Declared origins
 * (the resource's `_meta.ui.csp`) are honoured when they are https/wss origins; nested frames, forms,
 * `<base>` and plugins stay off whatever the view asks.
 */
export function appContentSecurityPolicy(csp?: ResourceCsp): string {
  const res = origins(csp?.resourceDomains).join(" ");
  const connect = origins(csp?.connectDomains).join(" ");
  const plus = (s: string) => (res ? `${s} ${res}` : s);
  return [
    "default-src 'none'",
    plus("script-src 'unsafe-inline'"),
    plus("style-src 'unsafe-inline'"),
    plus("img-src data: blob:"),
    plus("font-src data:"),
    plus("media-src data: blob:"),
    `connect-src ${connect || "'none'"}`,
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-ancestors 'self'",
    "sandbox allow-scripts",
  ].join("; ");
}
