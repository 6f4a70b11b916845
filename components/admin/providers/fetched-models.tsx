"use client";
// "Fetch models": the provider's list, to enable some at once. A filter box narrows the list, Select
// all / Select none act on what the filter shows, and models that are not for chatting (embedding,
// speech, image, moderation) are marked and left unticked, after the chat models.
import { useActionState, useMemo, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import type { ProviderView } from "@/lib/providers/admin";
import type { ModelPurpose } from "@/lib/providers/model-purpose";
import { FormMessage } from "../../ui/field";
import { Input } from "../../ui/input";
import { Button } from "../../ui/button";
import { SubmitButton } from "../../ui/submit-button";

const MARK: Record<Exclude<ModelPurpose, "chat">, string> = { embedding: "embedding model, not for chat", other: "not a chat model" };

export function FetchModels({ provider, actions }: { provider: ProviderView; actions: { fetch: FormAction; enable: FormAction } }) {
  const [state, fetchAction, fetching] = useActionState(actions.fetch, initialActionState);
  const [enableState, enableAction] = useActionState(actions.enable, initialActionState);
  const listed = useMemo(() => {
    if (!state.ok || !state.data?.models) return [];
    const notChat = JSON.parse(state.data.notChat ?? "{}") as Record<string, Exclude<ModelPurpose, "chat">>;
    const ids = JSON.parse(state.data.models) as string[];
    return ids.map((id) => ({ id, notChat: notChat[id] })).sort((a, b) => Number(Boolean(a.notChat)) - Number(Boolean(b.notChat)));
  }, [state]);
  const added = new Set(provider.models.filter((m) => m.enabled).map((m) => m.modelId));
  const [filter, setFilter] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const shown = listed.filter((m) => m.id.toLowerCase().includes(filter.trim().toLowerCase()));
  const choosable = shown.filter((m) => !added.has(m.id));
  const setMany = (ids: string[], on: boolean) =>
    setPicked((p) => {
      const next = new Set(p);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  return (
    <div className="flex flex-col gap-3">
      <form action={fetchAction} className="flex items-center gap-3">
        <input type="hidden" name="providerId" value={provider.id} />
        <SubmitButton variant="secondary" pendingText="Fetching…">
          Fetch models
        </SubmitButton>
        {!fetching && state.message && (
          <p role={state.ok ? "status" : "alert"} className={`text-sm ${state.ok ? "text-subtle" : "text-error"}`}>
            {state.message}
          </p>
        )}
      </form>
      {listed.length > 0 && (
        <form action={enableAction} className="flex flex-col gap-2" aria-label="Models the provider offers">
          <input type="hidden" name="providerId" value={provider.id} />
          <FormMessage message={enableState.message} ok={enableState.ok} />
          <div className="flex flex-wrap items-center gap-2">
            <Input
              size="sm"
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              aria-label="Filter models"
              placeholder="Filter models"
              className="max-w-60"
            />
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() =>
                setMany(
                  choosable.filter((m) => !m.notChat).map((m) => m.id),
                  true,
                )
              }
            >
              Select all
            </Button>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() =>
                setMany(
                  shown.map((m) => m.id),
                  false,
                )
              }
            >
              Select none
            </Button>
            <span className="text-xs text-subtle" aria-live="polite">
              {shown.length} of {listed.length} shown, {picked.size} selected
            </span>
          </div>
          <ul
            className="grid max-h-72 grid-cols-1 gap-1 overflow-y-auto rounded-lg border border-line p-2 sm:grid-cols-2"
            aria-label="The provider's list"
            tabIndex={0}
          >
            {shown.map((m) => (
              <li key={m.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="modelIds"
                    value={m.id}
                    disabled={added.has(m.id)}
                    checked={added.has(m.id) || picked.has(m.id)}
                    onChange={(e) => setMany([m.id], e.target.checked)}
                  />
                  <span className="truncate font-mono text-xs">{m.id}</span>
                  {added.has(m.id) && <span className="text-xs text-subtle">enabled</span>}
                  {m.notChat && <span className="text-xs text-caution">{MARK[m.notChat]}</span>}
                </label>
              </li>
            ))}
          </ul>
          <SubmitButton className="self-start" pendingText="Enabling…">
            Enable selected
          </SubmitButton>
        </form>
      )}
    </div>
  );
}
