"use client";
// Knowledge bases, team-wide (Admin → Knowledge) or a project's (its page): "New knowledge base" (name,
// description, the embedding model: one of the team's providers, the model's id and its dimensions)
// for those who may create one, and each base with its documents (knowledge-base-card.tsx).
import { useState } from "react";
import { useRouter } from "next/navigation";
import type { BaseSummary } from "@/lib/knowledge/knowledge-bases";
import type { DocumentView } from "@/lib/knowledge/documents";
import { Button } from "../ui/button";
import { Field, FormField, FormMessage, TextareaField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { ApiError, fetchJson, serverMessage } from "../shared/fetch-json";
import { KnowledgeBaseCard } from "./knowledge-base-card";

export type ProviderChoice = { id: string; name: string; enabled: boolean };

type Props = {
  bases: BaseSummary[];
  documents: Record<string, DocumentView[]>;
  providers: ProviderChoice[];
  /** The project whose bases these are; none: the team-wide ones. */
  projectId?: string;
  canCreate: boolean;
  /** Said when there are no bases. */
  emptyText: string;
};

function NewBaseForm({ providers: all, projectId }: Pick<Props, "providers" | "projectId">) {
  const providers = all.filter((p) => p.enabled);
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [state, setState] = useState<{ ok?: boolean; message?: string; fields?: Record<string, string> }>({});
  async function create(form: HTMLFormElement) {
    const data = new FormData(form);
    setPending(true);
    try {
      await fetchJson("/api/knowledge-bases", {
        method: "POST",
        body: {
          name: data.get("name"),
          description: data.get("description") || undefined,
          ...(projectId ? { projectId } : {}),
          embedding: { providerId: data.get("providerId"), model: data.get("model"), dimensions: Number(data.get("dimensions")) },
        },
      });
      setState({ ok: true, message: `Created ${String(data.get("name")).trim()}.` });
      form.reset();
      router.refresh();
    } catch (err) {
      setState({ message: serverMessage(err) ?? "Could not create the knowledge base. Try again.", fields: err instanceof ApiError ? err.fields : undefined });
    }
    setPending(false);
  }
  if (!providers.length) return <p className="text-sm text-subtle">Add a provider first (Admin → Providers): a knowledge base needs one for its embeddings.</p>;
  return (
    <form
      aria-label="New knowledge base"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void create(e.currentTarget);
      }}
    >
      <div className="flex flex-wrap items-start gap-3">
        <Field label="Name" name="name" maxLength={100} required className="w-56" error={state.fields?.name} />
        <FormField label="Embedding provider" className="w-56" error={state.fields?.["embedding.providerId"]}>
          {(control) => (
            <OptionSelect {...control} name="providerId" defaultValue={providers[0].id} options={providers.map((p) => ({ value: p.id, label: p.name }))} />
          )}
        </FormField>
        <Field
          label="Embedding model"
          name="model"
          maxLength={200}
          required
          className="w-56"
          placeholder="text-embedding-3-small"
          hint="The provider's id for the model."
          error={state.fields?.["embedding.model"]}
        />
        <Field
          label="Dimensions"
          name="dimensions"
          type="number"
          min={1}
          max={16000}
          defaultValue={1536}
          required
          className="w-32"
          hint="Fixed for the base's life."
          error={state.fields?.["embedding.dimensions"]}
        />
      </div>
      <TextareaField label="Description" name="description" maxLength={2000} rows={2} error={state.fields?.description} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create knowledge base"}
        </Button>
      </div>
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}

export function KnowledgeBasesPanel({ bases, documents, providers, projectId, canCreate, emptyText }: Props) {
  // Open at first when there is no base yet; then the person's: the list read again after a base is
  // created must not fold the form away with its "Created …" message.
  const [formOpen, setFormOpen] = useState(bases.length === 0);
  const providerName = (id: string | null) => providers.find((p) => p.id === id)?.name ?? null;
  return (
    <div className="flex flex-col gap-6">
      {canCreate && (
        <details className="rounded-lg border border-line p-4" open={formOpen} onToggle={(e) => setFormOpen(e.currentTarget.open)}>
          <summary className="cursor-pointer font-semibold">New knowledge base</summary>
          <div className="pt-4">
            <NewBaseForm providers={providers} projectId={projectId} />
          </div>
        </details>
      )}
      {bases.length === 0 ? (
        <p className="text-sm text-subtle">{emptyText}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {bases.map((b) => (
            <KnowledgeBaseCard key={b.id} base={b} documents={documents[b.id] ?? []} providerName={providerName(b.embedding.providerId)} />
          ))}
        </ul>
      )}
    </div>
  );
}
