"use client";
// The sidebar's "Projects": the member's personal projects and the team's shared ones, by name, and
// "New project". Read on every navigation and chat change, so a project made, renamed or shared
// shows up without a reload of the page.
import { useEffect, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Folder, FolderPlus, Users } from "lucide-react";
import type { ProjectSummary } from "@/lib/projects/projects";
import { cn } from "../ui/cn";
import { onChats } from "../shared/chat-events";
import { fetchJson } from "../shared/fetch-json";

export function ProjectsNav() {
  const pathname = usePathname();
  const [items, setItems] = useState<ProjectSummary[]>();
  const [tick, setTick] = useState(0);
  useEffect(() => onChats(() => setTick((t) => t + 1)), []);
  useEffect(() => {
    let stale = false;
    void fetchJson<{ projects: ProjectSummary[] }>("/api/projects")
      .then((body) => !stale && setItems(body.projects))
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [pathname, tick]);
  return (
    <nav aria-labelledby="projects-heading" className="max-h-48 overflow-y-auto border-t border-line px-2 py-1">
      <div className="flex items-center justify-between gap-1 px-2 pt-1 pb-0.5">
        <h2 id="projects-heading" className="text-xs font-medium text-subtle">
          Projects
        </h2>
        <Link href="/projects/new" className="flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-soft hover:bg-panel-hover">
          <FolderPlus className="size-3" aria-hidden /> New project
        </Link>
      </div>
      {items === undefined ? (
        <p role="status" className="px-2 py-1 text-xs text-subtle">
          Loading…
        </p>
      ) : items.length === 0 ? (
        <p className="px-2 py-1 text-xs text-subtle">No projects yet.</p>
      ) : (
        <ul className="flex flex-col gap-0.5">
          {items.map((p) => {
            const href = `/projects/${p.id}`;
            const current = pathname === href;
            return (
              <li key={p.id}>
                <Link
                  href={href}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "flex items-center gap-2 truncate rounded-md px-2 py-1.5 text-sm hover:bg-panel-hover",
                    current && "bg-panel-hover font-medium",
                  )}
                >
                  {p.shared ? <Users className="size-3.5 shrink-0" aria-hidden /> : <Folder className="size-3.5 shrink-0" aria-hidden />}
                  <span className="truncate">{p.name}</span>
                  {p.shared && <span className="sr-only">(shared with the team)</span>}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
