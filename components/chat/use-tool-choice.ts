"use client";
// The chat's tool choice as the picker holds it. A person's choice always wins over older server
// state: each local change bumps a version, a load applies its selection only when no change was made
// (or is being saved) since it started, and saves run one after another, the newest choice last, so
// a slow load or an earlier save never puts back a choice the person has already changed.
// A draft chat (not stored until its first message) keeps its choice here, unsaved: `onDraft` hands
// it to the view, which sends it with the first message; once stored, the chat's saved choice loads.
import { useCallback, useRef, useState } from "react";
import type { McpServerView } from "@/lib/mcp/servers";
import type { ToolSelection } from "@/lib/tools/selection";

type Data = { servers: McpServerView[]; selection: ToolSelection };

const NONE: ToolSelection = { servers: [], tools: [] };

/** Per chat, the saves still running: a message sent now waits for them, so the turn uses what is ticked. */
const pendingSaves = new Map<string, Promise<void>>();

/** Resolves once every tool-choice save of the chat started so far has been answered. */
export function toolChoiceSaved(chatId: string): Promise<void> {
  return pendingSaves.get(chatId) ?? Promise.resolve();
}

export function useToolChoice(chatId: string, draft = false, onDraft?: (selection: ToolSelection) => void) {
  const [servers, setServers] = useState<McpServerView[]>();
  const [selection, setSelection] = useState<ToolSelection>();
  const [error, setError] = useState<string>();
  const version = useRef(0);
  const saving = useRef(0);
  const latest = useRef<ToolSelection | undefined>(undefined);
  const confirmed = useRef<ToolSelection | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const show = useCallback((s: ToolSelection | undefined) => {
    latest.current = s;
    setSelection(s);
  }, []);

  const load = useCallback(async () => {
    const started = version.current;
    const res = await fetch(draft ? "/api/tools" : `/api/chat/${chatId}/tools`, { cache: "no-store" }).catch(() => undefined);
    const data = res?.ok ? ((await res.json().catch(() => undefined)) as Data | undefined) : undefined;
    if (!data) return;
    setServers(data.servers);
    if (draft) {
      if (!latest.current) show(NONE);
      return;
    }
    if (version.current !== started || saving.current > 0) return; // a newer local choice wins
    confirmed.current = data.selection;
    show(data.selection);
  }, [chatId, draft, show]);

  /** Applies a change to the newest local choice and saves it (after any save still running). */
  const change = useCallback(
    (next: (current: ToolSelection) => ToolSelection) => {
      if (!latest.current) return;
      const choice = next(latest.current);
      const mine = ++version.current;
      show(choice);
      setError(undefined);
      if (draft) return onDraft?.(choice);
      saving.current++;
      const save = async () => {
        if (mine !== version.current) return; // a newer choice is queued and carries this one
        const res = await fetch(`/api/chat/${chatId}/tools`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(choice) }).catch(() => undefined);
        const body = res?.ok ? ((await res.json().catch(() => ({}))) as { selection?: ToolSelection }) : undefined;
        if (body) confirmed.current = body.selection ?? choice;
        if (mine !== version.current) return;
        if (body) show(confirmed.current);
        else {
          show(confirmed.current);
          setError("Could not save the tool choice. Try again.");
        }
      };
      const queued = queue.current.then(save).finally(() => {
        saving.current--;
        if (pendingSaves.get(chatId) === queued) pendingSaves.delete(chatId);
      });
      queue.current = queued;
      pendingSaves.set(chatId, queued);
    },
    [chatId, draft, onDraft, show],
  );

  return { servers, selection, error, load, change };
}
