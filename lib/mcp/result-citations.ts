// URLs in MCP tool results that become citations: resource links with an http(s) URI, and
// search-like items (objects with a url and a title) in structured content or in text that is JSON.
// Pure: the chat's citation recorder stores them.
import type { CallToolResult } from "@modelcontextprotocol/client";

export type ResultCitation = { url: string; title?: string; snippet?: string };

const MAX = 50;

function httpUrl(s: unknown): string | undefined {
  if (typeof s !== "string") return undefined;
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** Objects shaped like search results ({ url|link|uri, title|name, snippet|description }), depth-first. */
function searchLike(v: unknown, out: ResultCitation[], depth = 0): void {
  if (depth > 6 || out.length >= MAX || v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (const x of v) searchLike(x, out, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  const url = httpUrl(o.url ?? o.link ?? o.uri ?? o.href);
  const title = str(o.title) ?? str(o.name);
  if (url && title) {
    out.push({ url, title, snippet: str(o.snippet) ?? str(o.description) ?? str(o.summary) });
    return;
  }
  for (const x of Object.values(o)) searchLike(x, out, depth + 1);
}

export function citationsFromResult(result: CallToolResult): ResultCitation[] {
  if (result.isError) return [];
  const out: ResultCitation[] = [];
  for (const b of result.content ?? []) {
    if (b.type === "resource_link") {
      const url = httpUrl(b.uri);
      if (url) out.push({ url, title: b.title ?? b.name, snippet: b.description });
    } else if (b.type === "text" && /^\s*[[{]/.test(b.text)) {
      try {
        searchLike(JSON.parse(b.text), out);
      } catch {
        /* not JSON */
      }
    }
  }
  if (result.structuredContent) searchLike(result.structuredContent, out);
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.url) && seen.add(c.url)).slice(0, MAX);
}
