"use client";
// Citations in a message: superscript numbers in the text (placed where the provider's annotations
// say, or where the model wrote a knowledge passage's number as [n]), a hover card with the title and
// domain (for a passage: its document and page), and the numbered sources list under the message. A
// passage opens in the document's viewer with the passage highlighted (app/(chat)/knowledge).
// Numbers come from the server (message metadata), so a live turn and a reload agree.
import type { CitationView } from "@/lib/messages/citations";

type Annotation = { type?: string; url?: string; start_index?: number; end_index?: number };

/** Where a citation is from, as its second line reads: a site's domain, or "Team knowledge". */
function originOf(citation: CitationView): string {
  return citation.origin === "knowledge" ? "Team knowledge" : domainOf(citation.url);
}

function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** A markdown link that is the provider's own inline citation, e.g. "([example.com](https://…))". */
const INLINE_LINK = /^\s*\(?\[[^\]]*\]\([^)]*\)\)?\s*$/;

/**
 * The text with a `[n](url)` marker after each cited span (replacing the span when it is only the
 * provider's inline link). Markers are rendered as superscripts by CitationLink.
 */
export function withCitationMarks(text: string, annotations: Annotation[] | undefined, citations: CitationView[] | undefined): string {
  if (!annotations?.length || !citations?.length) return text;
  const byUrl = new Map(citations.map((c) => [c.url, c]));
  const marks = annotations
    .filter((a) => a.type === "url_citation" && a.url && byUrl.has(a.url) && typeof a.end_index === "number" && a.end_index <= text.length)
    .map((a) => ({ start: a.start_index ?? a.end_index!, end: a.end_index!, c: byUrl.get(a.url!)! }))
    .sort((a, b) => b.end - a.end);
  let out = text;
  let lastStart = Infinity;
  for (const m of marks) {
    if (m.end > lastStart) continue; // overlapping spans: keep the later one
    const marker = `[${m.c.n}](${m.c.url.replace(/\)/g, "%29")})`;
    const span = out.slice(m.start, m.end);
    out = INLINE_LINK.test(span) ? out.slice(0, m.start) + marker + out.slice(m.end) : out.slice(0, m.end) + marker + out.slice(m.end);
    lastStart = INLINE_LINK.test(span) ? m.start : m.end;
  }
  return out;
}

/** A bare [n] the model wrote for a knowledge passage (not a markdown link already). */
const PASSAGE_MARK = /\[(\d{1,3})\](?![(\[])/g;

/** The text with each [n] that names a cited knowledge passage turned into that citation's `[n](url)` marker. */
export function withPassageMarks(text: string, citations: CitationView[] | undefined): string {
  const passages = new Map((citations ?? []).filter((c) => c.origin === "knowledge").map((c) => [String(c.n), c]));
  if (!passages.size) return text;
  return text.replace(PASSAGE_MARK, (mark, n: string) => {
    const c = passages.get(n);
    return c ? `[${n}](${c.url.replace(/\)/g, "%29")})` : mark;
  });
}

export function CitationMark({ citation }: { citation: CitationView }) {
  return (
    <span className="group/cite relative inline-block align-super text-[0.7em] leading-none">
      <a
        href={citation.url}
        target="_blank"
        rel="noreferrer"
        data-citation={citation.n}
        aria-label={`Source ${citation.n}: ${citation.title ?? originOf(citation)}`}
        className="rounded px-0.5 font-medium text-accent-text no-underline hover:underline focus-visible:underline"
      >
        {citation.n}
      </a>
      <span
        role="tooltip"
        className="pointer-events-none invisible absolute bottom-full left-1/2 z-20 mb-1 w-64 -translate-x-1/2 rounded-md border border-line-overlay bg-surface p-2 text-left text-xs leading-snug text-strong opacity-0 shadow-lg transition-opacity group-focus-within/cite:visible group-focus-within/cite:opacity-100 group-hover/cite:visible group-hover/cite:opacity-100"
      >
        <span className="block font-medium">{citation.title ?? citation.url}</span>
        <span className="block text-subtle">{originOf(citation)}</span>
        {citation.snippet && <span className="mt-1 block text-subtle">{citation.snippet}</span>}
      </span>
    </span>
  );
}

/** The numbered list of sources under a message. */
export function SourcesList({ citations }: { citations: CitationView[] }) {
  if (!citations.length) return null;
  return (
    <section aria-label="Sources" className="text-xs text-subtle">
      <h3 className="mb-1 font-medium text-soft">Sources</h3>
      <ol className="flex flex-col gap-0.5">
        {citations.map((c) => (
          <li key={c.n} className="flex gap-1.5">
            <span className="w-4 shrink-0 text-right tabular-nums">{c.n}.</span>
            <a href={c.url} target="_blank" rel="noreferrer" className="min-w-0 truncate underline decoration-dim hover:text-strong">
              {c.title ?? c.url}
            </a>
            <span className="shrink-0 text-subtle">{originOf(c)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
