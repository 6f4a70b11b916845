// The team's audit log for admins: a table (time, who, action, target, details), newest first, in
// pages, filtered by action, member and date range from the query string.
import Link from "next/link";
import { adminPage } from "@/app/_server/page-guards";
import { auditFilterChoices, auditFilterSchema, listAuditEvents, type AuditFilter } from "@/lib/audit-log";
import { AuditFilters } from "@/components/admin/audit-filters";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export const metadata = { title: "Audit log" };

function pageHref(filter: AuditFilter, page: number): string {
  const q = new URLSearchParams(Object.entries({ ...filter, page: page > 1 ? String(page) : undefined }).filter((e): e is [string, string] => Boolean(e[1])));
  return `/admin/audit${q.size ? `?${q}` : ""}`;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await adminPage("/admin/audit");
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v || undefined]));
  const filter = auditFilterSchema.parse(raw);
  const [{ rows, page, hasMore }, choices] = await Promise.all([listAuditEvents(ctx.team.id, filter), auditFilterChoices(ctx.team.id)]);
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="mb-3 text-lg font-semibold">
        Audit log
      </h1>
      <AuditFilters filter={filter} actions={choices.actions} actors={choices.actors} />
      {rows.length === 0 ? (
        <p className="text-sm text-subtle">
          {page > 1 || filter.action || filter.actor || filter.from || filter.to ? "No events match these filters." : "Nothing recorded yet."}
        </p>
      ) : (
        <Table label="Audit events" className="table-fixed">
          <TableHeader>
            <tr>
              <TableHead className="w-32">Time (UTC)</TableHead>
              <TableHead className="w-32">Who</TableHead>
              <TableHead className="w-44">Action</TableHead>
              <TableHead className="w-36">Target</TableHead>
              <TableHead>Details</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {rows.map((e) => (
              <TableRow key={e.id} className="align-top" data-action={e.action}>
                <TableCell>
                  <time dateTime={e.at.toISOString()}>{e.at.toISOString().replace("T", " ").slice(0, 16)}</time>
                </TableCell>
                <TableCell className="break-words">{e.actor}</TableCell>
                <TableCell className="break-words">
                  {e.label}
                  <span className="block font-mono text-xs text-subtle">{e.action}</span>
                </TableCell>
                <TableCell className="break-words">{e.target ?? "—"}</TableCell>
                <TableCell>
                  {e.details.length > 0 && (
                    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-2 text-xs">
                      {e.details.map((d) => (
                        <div key={d.label} className="contents">
                          <dt className="text-subtle">{d.label}</dt>
                          <dd className="break-words">{d.value}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {(page > 1 || hasMore) && (
        <nav aria-label="Audit log pages" className="mt-3 flex items-center gap-4 text-sm">
          {page > 1 && (
            <Link href={pageHref(filter, page - 1)} className="text-accent-text underline">
              ← Newer
            </Link>
          )}
          <span>Page {page}</span>
          {hasMore && (
            <Link href={pageHref(filter, page + 1)} className="text-accent-text underline">
              Older →
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
