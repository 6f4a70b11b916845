// The audit log's filters: action, member, tool, decision and a date range (and the CSV export of the filtered log), sent as the page's query string (a GET
// form, so a filtered view is a link that can be shared and reloaded).
import Link from "next/link";
import type { AuditFilter } from "@/lib/audit-log";

/** The decisions of lib/audit-log.ts DECISIONS (values only cross as data; components import types from lib). */
const DECISIONS = { approved: "Approved", denied: "Denied by a person", edited: "Edited", "timed-out": "Denied: no decision in time" } as const;

/** The filter as a query string for the CSV export (without the page: the export takes every page). */
function exportQuery(filter: AuditFilter): string {
  return new URLSearchParams(
    Object.entries({ ...filter, page: undefined }).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
  ).toString();
}
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { OptionSelect, type Option } from "../ui/select";

export function AuditFilters({ filter, actions, actors }: { filter: AuditFilter; actions: Option[]; actors: Option[] }) {
  return (
    <form method="get" action="/admin/audit" aria-label="Filter the audit log" className="mb-4 flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-action">Action</Label>
        <OptionSelect
          id="audit-action"
          name="action"
          size="sm"
          defaultValue={filter.action ?? ""}
          options={[{ value: "", label: "Any action" }, ...actions]}
          className="w-56"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-actor">Member</Label>
        <OptionSelect
          id="audit-actor"
          name="actor"
          size="sm"
          defaultValue={filter.actor ?? ""}
          options={[{ value: "", label: "Anyone" }, ...actors]}
          className="w-56"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-tool">Tool</Label>
        <Input id="audit-tool" name="tool" size="sm" defaultValue={filter.tool ?? ""} className="w-40" />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-decision">Decision</Label>
        <OptionSelect
          id="audit-decision"
          name="decision"
          size="sm"
          defaultValue={filter.decision ?? ""}
          options={[{ value: "", label: "Any decision" }, ...Object.entries(DECISIONS).map(([value, label]) => ({ value, label }))]}
          className="w-52"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-from">From</Label>
        <Input id="audit-from" name="from" type="date" size="sm" defaultValue={filter.from ?? ""} className="w-40" />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-to">To</Label>
        <Input id="audit-to" name="to" type="date" size="sm" defaultValue={filter.to ?? ""} className="w-40" />
      </div>
      <Button type="submit" size="sm">
        Apply filters
      </Button>
      <a href={`/admin/audit/export?${exportQuery(filter)}`} download className="py-1.5 text-sm text-accent-text underline">
        Export CSV
      </a>
      {(filter.action || filter.actor || filter.from || filter.to || filter.tool || filter.decision) && (
        <Link href="/admin/audit" className="py-1.5 text-sm text-accent-text underline">
          Clear filters
        </Link>
      )}
    </form>
  );
}
