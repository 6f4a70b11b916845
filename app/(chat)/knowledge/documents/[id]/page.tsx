// The passage viewer: a knowledge document's text a page at a time, opened by a citation at the page
// that holds the cited passage, with the passage marked and focused. A citation of an older version
// (the document was replaced since) says so and marks nothing. Pages step back and forth; a PDF's
// original opens at the same page. Who may see the document: lib/knowledge/viewer.ts (404 otherwise).
import Link from "next/link";
import { ChevronLeft, ChevronRight, FileText } from "lucide-react";
import { Button } from "@/components/ui/button";
import { PassageFocus } from "@/components/knowledge/passage-focus";
import { passageView, viewerDocument } from "@/lib/knowledge/viewer";
import { orNotFound, teamPage } from "@/app/_server/page-guards";

export const metadata = { title: "Document" };

type Search = Record<string, string | string[] | undefined>;

const whole = (v: string | string[] | undefined) => (typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

export default async function DocumentViewer({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const { id } = await params;
  const asked = await searchParams;
  const ctx = await teamPage(`/knowledge/documents/${id}`);
  const doc = await orNotFound(viewerDocument(ctx, id));
  const { page, mark, stale } = passageView(doc, { version: whole(asked.v), from: whole(asked.from), to: whole(asked.to), page: whole(asked.page) });
  const pageHref = (n: number) => `/knowledge/documents/${doc.id}?page=${n}`;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      <div className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-xl font-semibold">
          <FileText className="size-5 shrink-0 text-subtle" aria-hidden />
          <span className="min-w-0 truncate">{doc.name}</span>
        </h1>
        <p className="text-sm text-subtle">
          In the knowledge base “{doc.baseName}” · version {doc.version}
          {page ? ` · page ${page.number} of ${doc.pages.length}` : ""}
        </p>
      </div>
      {stale && (
        <p role="status" className="rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground">
          The passage was cited from version {whole(asked.v)} of this document, which has been replaced since: this is version {doc.version}, and the passage
          may read differently or be gone.
        </p>
      )}
      {!page ? (
        <p className="text-sm text-subtle">
          {doc.status === "failed" ? "This document could not be indexed, so it has no text to show." : "This document is still being indexed."}
        </p>
      ) : (
        <>
          <nav aria-label="Pages" className="flex flex-wrap items-center gap-2">
            {page.number > 1 && (
              <Button asChild variant="secondary" size="sm">
                <Link href={pageHref(page.number - 1)}>
                  <ChevronLeft className="size-4" aria-hidden /> Previous page
                </Link>
              </Button>
            )}
            {page.number < doc.pages.length && (
              <Button asChild variant="secondary" size="sm">
                <Link href={pageHref(page.number + 1)}>
                  Next page <ChevronRight className="size-4" aria-hidden />
                </Link>
              </Button>
            )}
            <a
              href={`/api/knowledge-documents/${doc.id}/file${doc.mediaType === "application/pdf" ? `#page=${page.number}` : ""}`}
              target="_blank"
              rel="noreferrer"
              className="ml-auto text-sm underline decoration-dim hover:text-strong"
            >
              {doc.mediaType === "application/pdf" ? `Open the PDF at page ${page.number}` : "Download the original"}
            </a>
          </nav>
          <article aria-label={`Page ${page.number}`} className="whitespace-pre-wrap rounded-md border border-line p-4 text-sm leading-relaxed">
            {mark ? (
              <>
                {doc.text.slice(page.start, mark.start)}
                <mark id="passage" tabIndex={-1} aria-label="Cited passage" className="rounded-sm bg-highlight text-emphasis outline-offset-2">
                  {doc.text.slice(mark.start, mark.end)}
                </mark>
                {doc.text.slice(mark.end, page.end)}
              </>
            ) : (
              doc.text.slice(page.start, page.end)
            )}
          </article>
          {mark && <PassageFocus targetId="passage" />}
        </>
      )}
    </div>
  );
}
