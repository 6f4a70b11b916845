"use client";
// The chat's tool choice as the picker holds it. A person's choice always wins over older server
// state: each local change bumps a version, a load applies its selection only when no change was made
// (or is being saved) since it started, and saves run one after another, the newest choice last, so
// a slow load or an earlier save never puts back a choice the person has already changed.
// A draft chat (not stored until its first message) starts from the member's choice for new chats and
// saves changes as that choice (/api/tools/new-chat); `onDraft` hands the choice to the view, which
// sends it with the first message. Once stored, the chat's saved choice loads. A draft in a project
// with default tools (`start`) starts from those instead, and its changes stay in this chat only.
import { useCallback, useEffect, useRef, useState } from "react";
import type { PickerServer } from "@/lib/tools/member-tools";
import type { ToolSelection } from "@/lib/tools/selection";
import { fetchJson } from "../shared/fetch-json";
import { trackChoiceSave } from "./choice-saves";

type Data = { servers: PickerServer[]; selection: ToolSelection };

export function useToolChoice(chatId: string, draft = false, onDraft?: (selection: ToolSelection) => void, start?: ToolSelection) {
  const [servers, setServers] = useState<PickerServer[]>();
  const [selection, setSelection] = useState<ToolSelection>();
  const [error, setError] = useState<string>();
  const version = useRef(0);
  const saving = useRef(0);
  const latest = useRef<ToolSelection | undefined>(undefined);
  const confirmed = useRef<ToolSelection | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const url = draft ? "/api/tools/new-chat" : `/api/chat/${chatId}/tools`;
  // The latest callback, without making every render a new `show` (and a new load).
  const handOver = useRef(onDraft);
  useEffect(() => {
    handOver.current = onDraft;
  }, [onDraft]);

  const show = useCallback(
    (s: ToolSelection | undefined) => {
      latest.current = s;
      setSelection(s);
      if (draft && s) handOver.current?.(s);
    },
    [draft],
  );

  const load = useCallback(async () => {
    const started = version.current;
    const data = await fetchJson<Data>(url, { cache: "no-store" }).catch(() => undefined);
    if (!data) return;
    setServers(data.servers);
    if (version.current !== started || saving.current > 0) return; // a newer local choice wins
    const selection = draft && start ? start : data.selection;
    confirmed.current = selection;
    show(selection);
  }, [url, show, draft, start]);

  /** Applies a change to the newest local choice and saves it (after any save still running). */
  const change = useCallback(
    (next: (current: ToolSelection) => ToolSelection) => {
      if (!latest.current) return;
      const choice = next(latest.current);
      const mine = ++version.current;
      show(choice);
      setError(undefined);
      saving.current++;
      const save = async () => {
        if (mine !== version.current) return; // a newer choice is queued and carries this one
        if (draft && start) return void (confirmed.current = choice); // the project's draft: sent with its first message
        const body = await fetchJson<{ selection?: ToolSelection } | undefined>(url, { method: "PUT", body: choice }).then(
          (answer) => answer ?? {},
          () => undefined,
        );
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
      });
      queue.current = queued;
      trackChoiceSave(chatId, "tools", queued);
    },
    [chatId, url, show, draft, start],
  );

  return { servers, selection, error, load, change };
}
