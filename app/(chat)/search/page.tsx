// Search messages: full-text over the member's chats and those shared with them, with highlighted snippets.
import { SearchResults } from "@/components/search/search-results";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { searchChats, type SearchResult } from "@/lib/search/search";
import { isAppError } from "@/lib/errors";
import { teamPage } from "@/app/_server/page-guards";

export const metadata = { title: "Search messages" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const ctx = await teamPage("/search");
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  let results: SearchResult[] | undefined;
  let error: string | undefined;
  if (q) {
    try {
      results = await searchChats(ctx, q);
    } catch (err) {
      if (!isAppError(err) || err.status !== 400) throw err;
      error = err.message;
    }
  }
  return (
    <div className="mx-auto max-w-3xl px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-4 text-lg font-semibold">Search messages</h1>
      <form role="search" action="/search" className="mb-6 flex gap-2">
        <label htmlFor="message-search" className="sr-only">
          Search in messages
        </label>
        <Input id="message-search" name="q" type="search" defaultValue={q} maxLength={200} placeholder='Words, "a phrase", -without' className="flex-1" />
        <Button type="submit">Search</Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {results && <SearchResults query={q} results={results} />}
    </div>
  );
}
