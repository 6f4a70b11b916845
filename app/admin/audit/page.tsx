import { adminPage } from "@/lib/teams/page-guards";
import { listAuditEvents } from "@/lib/audit-log";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export const metadata = { title: "Audit log" };

export default async function AuditPage() {
  const ctx = await adminPage("/admin/audit");
  const events = await listAuditEvents(ctx.team.id);
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="mb-3 text-lg font-semibold">
        Audit log
      </h1>
      {events.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing recorded yet.</p>
      ) : (
        <Table>
          <TableHeader>
            <tr>
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>What</TableHead>
              <TableHead>Details</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {events.map((e) => (
              <TableRow key={e.id} className="align-top">
                <TableCell className="whitespace-nowrap">{e.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</TableCell>
                <TableCell>{e.actor?.name ?? "—"}</TableCell>
                <TableCell className="font-mono text-xs">{e.action}</TableCell>
                <TableCell className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{e.data ? JSON.stringify(e.data) : ""}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
