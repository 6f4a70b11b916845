"use client";
// What an open chat reads back from the server while it does not follow a stream itself: an answer
// whose calls wait for an admin (until the admin has decided and the answer goes on), decisions the
// server refused (the stored answer replaces the page's guess), and an answer the server is still
// writing (rendered while the turn was being finalised, continued by another tab's decision, or handed
// over by an instance that stopped). Each reads the chat's newest page again until the answer moves on;
// the wait for an admin reads it when the live channel says one of the member's waiting calls left.
import { useEffect, useState, type RefObject } from "react";
import type { ChatStatus } from "ai";
import type { ParleyUIMessage } from "@/lib/chat/message-types";
import { useLive } from "../shared/live";
import { fetchBranchPage } from "./branch-page";

export type Decided = { state?: string; approval?: { id: string; approved?: boolean; reason?: string; by?: string; decidedAt?: string } };

/** Looks (300 ms apart) for an approved call's answer to go on before the page stops looking. */
const APPROVED_LOOKS = 200;

/** Whether a call of this answer waits for an admin. */
export function waitsForAdmin(m: ParleyUIMessage): boolean {
  return adminWaits(m).length > 0;
}

/** The approval ids of this answer's calls that wait for an admin. */
function adminWaits(m: ParleyUIMessage): string[] {
  return (m.parts as Decided[]).flatMap((p) => (p.state === "approval-requested" && p.approval?.by === "admin" ? [p.approval.id] : []));
}

/**
 * Whether a call of this stored answer was approved on the server (by an admin, or in another tab) and
 * the answer has not gone on yet: the turn continues in a moment, so the page keeps looking.
 */
function approvedNotRun(m: ParleyUIMessage): boolean {
  return (
    m.metadata?.status !== "streaming" && (m.parts as Decided[]).some((p) => p.state === "approval-responded" && p.approval?.approved && p.approval.decidedAt)
  );
}

/** A message as the server has it stored now (from the chat's newest page); undefined when it cannot tell. */
async function storedMessage(chatId: string, id: string): Promise<ParleyUIMessage | undefined> {
  const page = await fetchBranchPage(chatId);
  return page?.messages.find((m) => m.id === id);
}

/** How much longer than the other instance waits (its `handedOver.withinMs`) a page looks for a handed-over answer to go on. */
const HANDOVER_MARGIN_MS = 15_000;

export type SetMessages = (update: (current: ParleyUIMessage[]) => ParleyUIMessage[]) => void;
/** The chat these polls look after: its status in useChat, its last message, and how to replace one. */
export type StoredAnswerPolls = { chatId: string; status: ChatStatus; last: ParleyUIMessage | undefined; setMessages: SetMessages };

/** `waitTick` changes when this member's decisions were just stored: the stored answer is read again at once. */
export function useAdminWait({ chatId, status, last, setMessages }: StoredAnswerPolls, waitTick: number) {
  // Calls waiting for an admin: the stored answer is read again whenever the live channel's `waiting`
  // event (the member's calls still waiting for an admin) no longer holds one of them, until the answer
  // goes on; then the poll for a streaming answer below takes over. An admin's approval is stored a moment
  // before the answer goes on: between the two the page shows the decision and keeps looking, 300 ms
  // apart (approvedNotRun), for at most APPROVED_LOOKS looks.
  const adminWaitId =
    (status === "ready" || status === "error") && last?.role === "assistant" && (waitsForAdmin(last) || approvedNotRun(last)) ? last.id : undefined;
  const waiting = last && adminWaitId ? adminWaits(last) : [];
  const [look, setLook] = useState(0);
  useLive("waiting", ({ approvalIds }) => {
    if (waiting.some((id) => !approvalIds.includes(id))) setLook((n) => n + 1);
  });
  useEffect(() => {
    if (!adminWaitId) return;
    let timer: ReturnType<typeof setTimeout>;
    let cancelled = false;
    let looks = 0;
    const check = async () => {
      const fresh = await storedMessage(chatId, adminWaitId);
      if (cancelled) return;
      const soon = fresh !== undefined && approvedNotRun(fresh);
      if (fresh && (!waitsForAdmin(fresh) || fresh.metadata?.status === "streaming")) {
        setMessages((current) => current.map((m) => (m.id === adminWaitId ? fresh : m)));
        if (!soon) return;
      }
      if (soon && ++looks <= APPROVED_LOOKS) timer = setTimeout(check, 300);
    };
    // Read when a waiting call left the live channel's list, when the member's own decisions were just
    // stored, and for an answer whose approval is stored but not yet run; a page that only waits needs no read.
    if (look || waitTick || (last && approvedNotRun(last))) timer = setTimeout(check, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // `last` is read for its state when the wait starts, not followed: the reads above replace it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [adminWaitId, chatId, setMessages, waitTick, look]);
}

export function useRefusedDecisions({ chatId, status, last, setMessages }: StoredAnswerPolls) {
  // Decisions the server refused show what the server holds, never a guess: the stored answer replaces
  // the local one. Still waiting (a network failure, a busy server): the cards go back to Approve/Deny
  // with the error below. Decided elsewhere (another tab won): the error says so and the card shows that
  // decision, then its result as it is stored (the poll below). No answer from the server: the cards go
  // back to their pending face. Either way no card claims "Running…" for a decision that was not taken.
  const refusedId =
    status === "error" && last?.role === "assistant" && (last.parts as Decided[]).some((p) => p.state === "approval-responded") ? last.id : undefined;
  useEffect(() => {
    if (!refusedId) return;
    let cancelled = false;
    void storedMessage(chatId, refusedId).then((fresh) => {
      if (cancelled) return;
      setMessages((current) =>
        current.map((m) => {
          if (m.id !== refusedId) return m;
          if (fresh) return fresh;
          const parts = m.parts.map((p) =>
            (p as Decided).state === "approval-responded"
              ? ({ ...p, state: "approval-requested", approval: { id: (p as Decided).approval!.id } } as typeof p)
              : p,
          );
          return { ...m, parts };
        }),
      );
    });
    return () => {
      cancelled = true;
    };
  }, [refusedId, chatId, setMessages]);
}

export function useStaleAnswer({ chatId, status, last, setMessages }: StoredAnswerPolls, messagesRef: RefObject<ParleyUIMessage[]>) {
  // An answer the server is still writing while this page does not follow its stream (the page was
  // rendered while the turn was being finalised, another tab's decision continues it, or the instance
  // that wrote it stopped and handed it to another): the stored answer is read again until it ends,
  // each read shown as it is. A handed-over answer is interrupted until the other instance takes it.
  const awaitingHandover = last?.metadata?.status === "interrupted" && last.metadata.handedOver !== undefined;
  const staleId =
    (status === "ready" || status === "error") && last?.role === "assistant" && (last.metadata?.status === "streaming" || awaitingHandover)
      ? last.id
      : undefined;
  useEffect(() => {
    if (!staleId) return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const handedOver = messagesRef.current.at(-1)?.metadata?.handedOver;
    const lookUntil = handedOver ? Date.now() + handedOver.withinMs + HANDOVER_MARGIN_MS : 0;
    const refresh = async () => {
      const fresh = await storedMessage(chatId, staleId);
      // Handed over: stored as interrupted until the other instance takes it, which may first wait for
      // the stopping one to store it (continue-decided.ts): looked at a while longer, shown as it is meanwhile.
      const handing = fresh?.metadata?.status === "interrupted" && Date.now() < lookUntil;
      if (fresh && !handing) setMessages((current) => current.map((m) => (m.id === staleId ? fresh : m)));
      if ((!fresh || fresh.metadata?.status === "streaming" || handing) && ++tries < 60) timer = setTimeout(refresh, Math.min(300 * tries, 3000));
    };
    timer = setTimeout(refresh, 300);
    return () => clearTimeout(timer);
  }, [staleId, chatId, setMessages, messagesRef]);
}
