"use client";
// A knowledge search's result in its tool block: what was searched for, a note when it searched by
// words only (the embedding server down), and the passages found, each with its citation number, its
// document and page (a link to the passage in the document's viewer) and its first lines.
import { passagePlace, type KnowledgeResult } from "@/lib/format/knowledge-result";

export function KnowledgeResultView({ result }: { result: KnowledgeResult }) {
  return (
    <div className="flex flex-col gap-2" data-knowledge-result>
      {result.degraded && <p className="rounded bg-warning px-2 py-1 text-xs text-warning-foreground">{result.degraded}</p>}
      {result.passages.length === 0 ? (
        <p className="text-subtle">No passage matched “{result.query}”.</p>
      ) : (
        <ol aria-label="Passages found" className="flex flex-col gap-2">
          {result.passages.map((p) => (
            <li key={`${p.n}-${p.url}`} className="flex gap-2">
              <span className="w-5 shrink-0 text-right text-xs tabular-nums text-subtle">[{p.n}]</span>
              <div className="min-w-0">
                <a href={p.url} target="_blank" rel="noreferrer" className="font-medium underline decoration-dim hover:text-strong">
                  {passagePlace(p)}
                </a>
                {p.headingPath.length > 0 && <span className="ml-1 text-xs text-subtle">{p.headingPath.join(" › ")}</span>}
                <p className="line-clamp-3 text-xs text-soft">{p.text}</p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
