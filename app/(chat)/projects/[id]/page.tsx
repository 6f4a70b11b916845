// A project's page: its name, whether it is shared, its instructions, "New chat in this project", and
// the chats of it the caller sees (their own; in a shared project the team's too, marked with their owner),
// and its knowledge bases (those who may edit the project manage them; others see them and their documents).
import Link from "next/link";
import { MessageSquarePlus, Pencil } from "lucide-react";
import { Button } from "@/components/ui/button";
import { KnowledgeBasesPanel } from "@/components/knowledge/knowledge-bases-panel";
import { knowledgePageData } from "@/lib/knowledge/knowledge-page";
import { getProject } from "@/lib/projects/projects";
import { orNotFound, teamPage } from "@/app/_server/page-guards";

export const metadata = { title: "Project" };

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await teamPage(`/projects/${id}`);
  const project = await orNotFound(getProject(ctx, id));
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="min-w-0 flex-1 truncate text-xl font-semibold">{project.name}</h1>
        {project.canEdit && (
          <Button asChild variant="ghost" size="sm">
            <Link href={`/projects/${project.id}/edit`}>
              <Pencil className="size-4" aria-hidden /> Edit project
            </Link>
          </Button>
        )}
        <Button asChild size="sm">
          <Link href={`/chat?project=${project.id}`}>
            <MessageSquarePlus className="size-4" aria-hidden /> New chat in this project
          </Link>
        </Button>
      </div>
      <p className="text-sm text-subtle">
        {project.shared
          ? `Shared with the team by ${project.mine ? "you" : project.owner}: everyone in the team sees its chats, read-only.`
          : "Personal: only you see it."}
      </p>
      <section aria-labelledby="instructions-heading" className="flex flex-col gap-1">
        <h2 id="instructions-heading" className="text-sm font-medium">
          Instructions
        </h2>
        {project.instructions ? (
          <p className="whitespace-pre-wrap rounded-md border border-line p-3 text-sm">{project.instructions}</p>
        ) : (
          <p className="text-sm text-subtle">None: the model gets no project instructions.</p>
        )}
      </section>
      <section aria-labelledby="project-chats-heading" className="flex flex-col gap-1">
        <h2 id="project-chats-heading" className="text-sm font-medium">
          Chats
        </h2>
        {project.chats.length === 0 ? (
          <p className="text-sm text-subtle">No chats in this project yet.</p>
        ) : (
          <ul aria-labelledby="project-chats-heading" className="flex flex-col divide-y divide-line rounded-md border border-line">
            {project.chats.map((c) => (
              <li key={c.id}>
                <Link href={`/chat/${c.id}`} className="flex items-center gap-2 px-3 py-2 text-sm hover:bg-inset">
                  <span className="min-w-0 flex-1 truncate">{c.title || "Untitled chat"}</span>
                  {!c.mine && <span className="text-xs text-subtle">{c.owner}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="project-knowledge-heading" className="flex flex-col gap-2">
        <h2 id="project-knowledge-heading" className="text-sm font-medium">
          Knowledge
        </h2>
        <KnowledgeBasesPanel
          {...await knowledgePageData(ctx, { projectId: project.id, canCreate: project.canEdit })}
          projectId={project.id}
          canCreate={project.canEdit}
          emptyText="No knowledge bases in this project."
        />
      </section>
    </div>
  );
}
