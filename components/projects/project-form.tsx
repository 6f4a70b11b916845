"use client";
// The project form (new project, and editing one): name, instructions, default model, default tools,
// "Shared with the team". Sends JSON to /api/projects (POST) or /api/projects/<id> (PATCH) and goes to
// the project's page. No tool ticked means "each member's own choice for new chats".
import { useState } from "react";
import { useRouter } from "next/navigation";
import type { PickerGroup } from "@/lib/providers/models";
import type { ToolSelection } from "@/lib/tools/selection";
import { Button } from "../ui/button";
import { CheckboxField, Field, FormField, FormMessage, TextareaField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { announceChats } from "../shared/chat-events";
import { ApiError, fetchJson } from "../shared/fetch-json";

export type FormServer = { id: string; name: string; tools: { id: string; name: string }[] };
export type ProjectValues = { name: string; instructions: string; defaultModelId: string | null; tools: ToolSelection | null; shared: boolean };

type Failure = { message: string; fields?: Record<string, string> };

const MEMBER_DEFAULT = "member-default";

export function ProjectForm({
  projectId,
  initial,
  models,
  servers,
}: {
  projectId?: string;
  initial?: ProjectValues;
  models: PickerGroup[];
  servers: FormServer[];
}) {
  const router = useRouter();
  const [name, setName] = useState(initial?.name ?? "");
  const [instructions, setInstructions] = useState(initial?.instructions ?? "");
  const [model, setModel] = useState(initial?.defaultModelId ?? MEMBER_DEFAULT);
  const [tools, setTools] = useState<Set<string>>(new Set(initial?.tools?.tools ?? []));
  const [shared, setShared] = useState(initial?.shared ?? false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure>();

  const toggle = (id: string, on: boolean) =>
    setTools((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setFailure(undefined);
    const ticked = [...tools];
    const selection = ticked.length ? { servers: servers.filter((s) => s.tools.some((t) => tools.has(t.id))).map((s) => s.id), tools: ticked } : null;
    const body = { name, instructions, defaultModelId: model === MEMBER_DEFAULT ? null : model, tools: selection, shared };
    let saved: { id: string };
    try {
      saved = await fetchJson<{ id: string }>(projectId ? `/api/projects/${projectId}` : "/api/projects", { method: projectId ? "PATCH" : "POST", body });
    } catch (err) {
      setPending(false);
      return setFailure(
        err instanceof ApiError && err.fromServer ? { message: err.message, fields: err.fields } : { message: "Could not reach the server. Try again." },
      );
    }
    announceChats();
    router.push(`/projects/${saved.id}`);
    router.refresh();
  }

  const modelOptions = [
    { value: MEMBER_DEFAULT, label: "Each member's default" },
    ...models.map((g) => ({ label: g.provider, options: g.models.map((m) => ({ value: m.id, label: m.name })) })),
  ];
  return (
    <form onSubmit={submit} className="flex max-w-xl flex-col gap-4" aria-busy={pending}>
      <Field
        label="Name"
        name="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={failure?.fields?.name}
        autoFocus={!projectId}
      />
      <TextareaField
        label="Instructions"
        name="instructions"
        rows={5}
        maxLength={8000}
        value={instructions}
        onChange={(e) => setInstructions(e.target.value)}
        error={failure?.fields?.instructions}
        hint="Sent to the model in every chat of this project, before each member's own instructions."
      />
      <FormField label="Default model" error={failure?.fields?.defaultModelId} hint="The model new chats in this project start with.">
        {(control) => <OptionSelect {...control} value={model} onValueChange={setModel} options={modelOptions} />}
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Default tools</legend>
        <p className="text-xs text-subtle">New chats in this project start with these tools on. None ticked: each member&apos;s own choice.</p>
        {servers.length === 0 && <p className="text-sm text-subtle">The team has no MCP servers yet.</p>}
        {servers.map((s) => (
          <fieldset key={s.id} className="flex flex-col gap-1 pl-2">
            <legend className="text-sm">{s.name}</legend>
            {s.tools.map((t) => (
              <CheckboxField key={t.id} label={t.name} checked={tools.has(t.id)} onChange={(e) => toggle(t.id, e.currentTarget.checked)} className="pl-2" />
            ))}
          </fieldset>
        ))}
      </fieldset>
      <CheckboxField
        label="Shared with the team (everyone in the team sees it and its chats, read-only)"
        checked={shared}
        onChange={(e) => setShared(e.currentTarget.checked)}
      />
      <FormMessage
        message={failure?.message && failure.message !== "Invalid request." ? failure.message : failure ? "Please correct the highlighted fields." : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : projectId ? "Save project" : "Create project"}
        </Button>
        <Button variant="secondary" onClick={() => router.back()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
