// New project: the project form (components/projects/project-form.tsx); saving goes to its page.
import { ProjectForm } from "@/components/projects/project-form";
import { teamPage } from "@/app/_server/page-guards";
import { projectFormData } from "../form-data";

export const metadata = { title: "New project" };

export default async function NewProjectPage() {
  const ctx = await teamPage("/projects/new");
  const data = await projectFormData(ctx);
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      <h1 className="text-xl font-semibold">New project</h1>
      <p className="text-sm text-subtle">A folder of chats with instructions for the model, and the model and tools its new chats start with.</p>
      <ProjectForm {...data} />
    </div>
  );
}
