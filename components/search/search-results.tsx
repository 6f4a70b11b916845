// The results of a message search: one per chat, its title, whose it is, and the matching passage with
// the words found highlighted (<mark>, from plain-text segments: no HTML from chat text).
import Link from "next/link";
import type { SearchResult } from "@/lib/search/search";

export function SearchResults({ query, results }: { query: string; results: SearchResult[] }) {
  if (!results.length) return <p className="text-sm text-subtle">No messages match “{query}”.</p>;
  return (
    <section aria-labelledby="search-results-heading">
      <h2 id="search-results-heading" className="mb-2 text-sm font-medium text-subtle">
        {results.length === 1 ? "1 chat" : `${results.length} chats`} match “{query}”
      </h2>
      <ol className="flex flex-col gap-3">
        {results.map((r) => (
          <li key={r.chatId} className="rounded-md border border-line p-3">
            <Link href={`/chat/${r.chatId}`} className="font-medium text-accent-text underline-offset-2 hover:underline">
              {r.title || "Untitled chat"}
            </Link>
            {!r.mine && <span className="ml-2 text-xs text-subtle">shared by {r.owner}</span>}
            <p className="mt-1 text-sm text-soft">
              {r.snippet.map((s, i) =>
                s.hit ? (
                  <mark key={i} className="rounded-sm bg-highlight px-0.5 text-emphasis">
                    {s.text}
                  </mark>
                ) : (
                  <span key={i}>{s.text}</span>
                ),
              )}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
