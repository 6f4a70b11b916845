// The audit log's filters: action, member and a date range, sent as the page's query string (a GET
// form, so a filtered view is a link that can be shared and reloaded).
import Link from "next/link";
import type { AuditFilter } from "@/lib/audit-log";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { OptionSelect, type Option } from "../ui/select";

export function AuditFilters({ filter, actions, actors }: { filter: AuditFilter; actions: Option[]; actors: Option[] }) {
  return (
    <form method="get" action="/admin/audit" aria-label="Filter the audit log" className="mb-4 flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-action">Action</Label>
        <OptionSelect id="audit-action" name="action" size="sm" defaultValue={filter.action ?? ""} options={[{ value: "", label: "Any action" }, ...actions]} className="w-56" />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="audit-actor">Member</Label>
        <OptionSelect id="audit-actor" name="actor" size="sm" defaultValue={filter.actor ?? ""} options={[{ value: "", label: "Anyone" }, ...actors]} className="w-56" />
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
      {(filter.action || filter.actor || filter.from || filter.to) && (
        <Link href="/admin/audit" className="py-1.5 text-sm text-accent-text underline">
          Clear filters
        </Link>
      )}
    </form>
  );
}
