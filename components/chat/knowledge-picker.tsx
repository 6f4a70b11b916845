"use client";
// The knowledge picker in the composer: the knowledge bases this chat may search — the team-wide ones
// the member sees, ticked per chat, and the project's own, which its chats always search — and whether
// to search before every answer ("Search before each answer") instead of letting the model decide
// with its knowledge-search tool. A stored chat saves each change at once (a turn started meanwhile
// waits for the save, choice-saves.ts); a draft hands its choice to the view, which sends it
// with the first message. Shown only when the team has a base the member sees.
import { useEffect, useRef, useState } from "react";
import { BookOpen } from "lucide-react";
import type { KnowledgeChoice, KnowledgeOption } from "@/lib/knowledge/chat-bases";
import { ComposerPopover } from "./composer-popover";
import { fetchJson } from "../shared/fetch-json";
import { trackChoiceSave } from "./choice-saves";

type Data = { options: KnowledgeOption[]; choice: KnowledgeChoice };

export function KnowledgePicker({
  chatId,
  disabled,
  draft,
  projectId,
  onDraft,
}: {
  chatId: string;
  disabled?: boolean;
  draft?: boolean;
  projectId?: string;
  onDraft?: (choice: KnowledgeChoice) => void;
}) {
  const [data, setData] = useState<Data>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState(false);
  // This picker's saves, one after another, so the newest choice is the one stored last.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const url = draft ? `/api/knowledge-bases/new-chat${projectId ? `?projectId=${encodeURIComponent(projectId)}` : ""}` : `/api/chat/${chatId}/knowledge`;

  // Loaded on mount and again each time the picker opens (`reloads`), or after a refused save.
  const [reloads, setReloads] = useState(0);
  const reload = () => setReloads((n) => n + 1);
  useEffect(() => {
    let current = true;
    void fetchJson<Data>(url, { cache: "no-store" })
      .then((loaded) => {
        // A draft keeps what the person ticked; only the options refresh.
        if (current) setData((shown) => (draft && shown ? { ...loaded, choice: shown.choice } : loaded));
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [url, draft, reloads]);

  const change = (choice: KnowledgeChoice) => {
    setData((current) => current && { ...current, choice });
    setError(undefined);
    if (draft) return onDraft?.(choice);
    const save = queue.current
      .then(() => fetchJson<{ choice: KnowledgeChoice }>(url, { method: "PUT", body: choice }))
      .then(
        () => {},
        (err: Error) => {
          setError(err.message || "Could not save the knowledge choice.");
          reload();
        },
      );
    queue.current = save;
    trackChoiceSave(chatId, "knowledge", save);
  };

  if (!data?.options.length) return null;
  const { options, choice } = data;
  const searched = options.filter((o) => o.fromProject || choice.bases.includes(o.id)).length;
  const label = `Knowledge${searched ? ` (${searched})` : ""}`;
  const toggle = (id: string, on: boolean) => change({ ...choice, bases: on ? [...choice.bases, id] : choice.bases.filter((b) => b !== id) });

  return (
    <ComposerPopover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) reload();
      }}
      label={label}
      icon={<BookOpen className="size-3" aria-hidden />}
      title="Knowledge for this chat"
      disabled={disabled}
      error={error}
    >
      <ul className="flex flex-col gap-1.5">
        {options.map((o) => (
          <li key={o.id}>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-accent"
                checked={o.fromProject || choice.bases.includes(o.id)}
                disabled={o.fromProject}
                onChange={(e) => toggle(o.id, e.target.checked)}
                aria-label={`Search ${o.name}`}
              />
              <span className="min-w-0">
                <span className="font-medium">{o.name}</span>
                <span className="block text-xs text-subtle">
                  {o.documents === 1 ? "1 document ready" : `${o.documents} documents ready`}
                  {o.fromProject ? " · this project's, always searched" : ""}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <label className="mt-3 flex items-start gap-2 border-t border-line pt-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-accent"
          checked={choice.automatic}
          onChange={(e) => change({ ...choice, automatic: e.target.checked })}
        />
        <span>
          Search before each answer
          <span className="block text-xs text-subtle">Off: the model searches when it decides to, and each search shows as a step.</span>
        </span>
      </label>
    </ComposerPopover>
  );
}
