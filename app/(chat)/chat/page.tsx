// New chat: an empty composer under a fresh draft id. Nothing is stored until the first message,
// which stores the chat under that id (lib/turn/turn-claim.ts) and moves the address to /chat/<id>;
// New chat from there starts a fresh draft (components/chat/new-chat-screen.tsx).
// It starts with the member's own default model when they chose one; an admin whose team is not set
// up yet sees the first steps, and without a model everyone is told what to do. `?project=<id>` starts
// it in a project (one the member may file chats in, else 404): the project's default model and tools
// are picked, and the first message files the chat there.
import { MessagesSquare } from "lucide-react";
import { NewChatScreen } from "@/components/chat/new-chat-screen";
import { FirstRunChecklist } from "@/components/chat/first-run-checklist";
import { NoModelNotice } from "@/components/chat/no-model-notice";
import { draftChatId } from "@/lib/chat/chats";
import { maxMessageChars } from "@/lib/turn/request";
import { abortedText, SUPERSEDED } from "@/lib/messages/tool-states";
import { pickerModels } from "@/lib/providers/models";
import { firstRunSteps } from "@/lib/teams/first-run";
import { teamPage } from "@/app/_server/page-guards";
import { personalModelOf } from "@/lib/teams/personal-model";
import { getProject } from "@/lib/projects/projects";
import { orNotFound } from "@/app/_server/page-guards";

export const metadata = { title: "New chat" };

export default async function NewChatPage({ searchParams }: { searchParams: Promise<{ project?: string | string[] }> }) {
  const { project: projectParam } = await searchParams;
  const projectId = typeof projectParam === "string" ? projectParam : undefined;
  const ctx = await teamPage(projectId ? `/chat?project=${encodeURIComponent(projectId)}` : "/chat");
  const [models, personal, steps, project] = await Promise.all([
    pickerModels(ctx.team.id),
    personalModelOf(ctx),
    firstRunSteps(ctx.team.id),
    projectId ? orNotFound(getProject(ctx, projectId)) : undefined,
  ]);
  const offered = (id: string | null | undefined) => !!id && models.groups.some((g) => g.models.some((m) => m.id === id));
  const isAdmin = ctx.team.role === "admin";
  const checklist = isAdmin && !(steps.provider && steps.mcpServer && steps.invited);
  const id = draftChatId();
  return (
    <NewChatScreen
      key={id}
      title={project ? `New chat in ${project.name}` : "New chat"}
      stored={false}
      chatId={id}
      initialMessages={[]}
      hasMore={false}
      resume={false}
      maxChars={maxMessageChars()}
      models={{ groups: models.groups, selected: offered(project?.defaultModelId) ? project!.defaultModelId : (personal ?? models.defaultModelId) }}
      project={project ? { id: project.id, tools: project.tools } : undefined}
      supersededFaces={{ denied: SUPERSEDED, aborted: abortedText("superseded", false) }}
      notice={models.groups.length ? undefined : <NoModelNotice isAdmin={isAdmin} />}
      emptyState={
        <div className="mt-16 flex flex-col items-center gap-3 text-center">
          <MessagesSquare className="size-10 text-faint" aria-hidden />
          <h2 className="text-xl font-semibold">{ctx.team.name}</h2>
          {checklist && <FirstRunChecklist steps={steps} />}
          <p className="max-w-sm text-sm text-subtle">Send a message to start a new chat, or pick one you had before.</p>
        </div>
      }
    />
  );
}
