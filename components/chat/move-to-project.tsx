"use client";
// The chat owner's "Move to project": a dialog listing the projects they may file the chat in (their
// own, the team's shared ones) and "No project"; saving sends PATCH /api/chat/<id> {projectId}.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { FolderInput } from "lucide-react";
import type { ProjectSummary } from "@/lib/projects/projects";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { Label } from "../ui/label";
import { OptionSelect } from "../ui/select";
import { announceChats } from "../shared/chat-events";
import { fetchJson } from "../shared/fetch-json";

const NONE = "none";

export function MoveToProjectButton({ chatId, projectId }: { chatId: string; projectId: string | null }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [projects, setProjects] = useState<ProjectSummary[]>();
  const [choice, setChoice] = useState(projectId ?? NONE);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function load() {
    setError(undefined);
    setChoice(projectId ?? NONE);
    const body = await fetchJson<{ projects: ProjectSummary[] }>("/api/projects").catch(() => undefined);
    if (!body) return setError("Could not load the projects. Try again.");
    setProjects(body.projects);
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    const moved = await fetchJson(`/api/chat/${chatId}`, { method: "PATCH", body: { projectId: choice === NONE ? null : choice } }).then(
      () => true,
      () => false,
    );
    setPending(false);
    if (!moved) return setError("Could not move the chat. Try again.");
    setOpen(false);
    announceChats({ id: chatId });
    router.refresh();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) void load();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="gap-1" aria-label="Move to project">
          <FolderInput className="size-4" aria-hidden /> <span className="hidden sm:inline">Move to project</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Move to project</DialogTitle>
        <DialogDescription>
          A chat in a project gets the project&apos;s instructions. In a shared project, everyone in the team sees it, read-only.
        </DialogDescription>
        {!projects && !error && (
          <p role="status" className="text-sm text-subtle">
            Loading…
          </p>
        )}
        {projects && (
          <form onSubmit={save} className="flex flex-col gap-3">
            <div className="flex flex-col gap-1">
              <Label htmlFor="move-project">Project</Label>
              <OptionSelect
                id="move-project"
                value={choice}
                onValueChange={setChoice}
                options={[{ value: NONE, label: "No project" }, ...projects.map((p) => ({ value: p.id, label: p.shared ? `${p.name} (shared)` : p.name }))]}
              />
            </div>
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={pending}>
                {pending ? "Moving…" : "Move"}
              </Button>
            </div>
          </form>
        )}
        <FormMessage message={error} />
      </DialogContent>
    </Dialog>
  );
}
