import { adminPage } from "@/lib/teams/page-guards";
import { listAuditEvents } from "@/lib/audit-log";

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
        <p className="text-sm text-zinc-500">Nothing recorded yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead className="bg-zinc-50 text-left text-xs uppercase tracking-wide text-zinc-500 dark:bg-zinc-900">
              <tr>
                <th scope="col" className="px-3 py-2">When</th>
                <th scope="col" className="px-3 py-2">Who</th>
                <th scope="col" className="px-3 py-2">What</th>
                <th scope="col" className="px-3 py-2">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                  <td className="whitespace-nowrap px-3 py-2">{e.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</td>
                  <td className="px-3 py-2">{e.actor?.name ?? "—"}</td>
                  <td className="px-3 py-2 font-mono text-xs">{e.action}</td>
                  <td className="px-3 py-2 font-mono text-xs text-zinc-600 dark:text-zinc-400">{e.data ? JSON.stringify(e.data) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
