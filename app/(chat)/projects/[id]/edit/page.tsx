// Edit a project (its creator; for a shared project also the team's admins): the project form, and Delete.
import { notFound } from "next/navigation";
import { DeleteProjectButton } from "@/components/projects/delete-project";
import { ProjectForm } from "@/components/projects/project-form";
import { getProject } from "@/lib/projects/projects";
import { orNotFound, teamPage } from "@/app/_server/page-guards";
import { projectFormData } from "../../form-data";

export const metadata = { title: "Edit project" };

export default async function EditProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await teamPage(`/projects/${id}/edit`);
  const [project, data] = await Promise.all([orNotFound(getProject(ctx, id)), projectFormData(ctx)]);
  if (!project.canEdit) notFound();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      <h1 className="text-xl font-semibold">Edit project “{project.name}”</h1>
      <ProjectForm projectId={project.id} initial={project} {...data} />
      <DeleteProjectButton projectId={project.id} name={project.name} />
    </div>
  );
}
