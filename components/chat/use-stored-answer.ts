"use client";
// What an open chat reads back from the server while it does not follow a stream itself: an answer
// whose calls wait for an admin (until the admin has decided and the answer goes on), decisions the
// server refused (the stored answer replaces the page's guess), and an answer the server is still
// writing (rendered while the turn was being finalised, continued by another tab's decision, or handed
// over by an instance that stopped). Each reads the chat's newest page again until the answer moves on.
import { useEffect, type RefObject } from "react";
import type { ChatStatus } from "ai";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { fetchBranchPage } from "./branch-page";

export type Decided = { state?: string; approval?: { id: string; approved?: boolean; reason?: string; by?: string; decidedAt?: string } };

/** How often an open chat looks whether an admin has decided its waiting calls. */
const ADMIN_POLL_MS = 2_000;
/** Looks (300 ms apart) for an approved call's answer to go on before the page stops looking. */
const APPROVED_LOOKS = 200;

/** Whether a call of this answer waits for an admin. */
export function waitsForAdmin(m: ParleyUIMessage): boolean {
  return (m.parts as Decided[]).some((p) => p.state === "approval-requested" && p.approval?.by === "admin");
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

/** `waitTick` changes when this member's decisions were just stored: the first look comes sooner. */
export function useAdminWait({ chatId, status, last, setMessages }: StoredAnswerPolls, waitTick: number) {
  // Calls waiting for an admin: the stored answer is read again (every few seconds) until an admin has
  // decided and the answer goes on; then the poll for a streaming answer below takes over.
  // An admin's approval is stored a moment before the answer goes on: between the two the page shows the
  // decision and keeps looking (approvedNotRun), for at most APPROVED_LOOKS looks.
  const adminWaitId =
    (status === "ready" || status === "error") && last?.role === "assistant" && (waitsForAdmin(last) || approvedNotRun(last)) ? last.id : undefined;
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
      if (soon && ++looks > APPROVED_LOOKS) return;
      timer = setTimeout(check, soon ? 300 : ADMIN_POLL_MS);
    };
    timer = setTimeout(check, waitTick ? 300 : ADMIN_POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [adminWaitId, chatId, setMessages, waitTick]);
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
    // A read still on its way when the page starts following the stream (a resume) must not replace
    // the live answer with the stored one, which lags it, nor read on.
    let cancelled = false;
    const handedOver = messagesRef.current.at(-1)?.metadata?.handedOver;
    const lookUntil = handedOver ? Date.now() + handedOver.withinMs + HANDOVER_MARGIN_MS : 0;
    const refresh = async () => {
      const fresh = await storedMessage(chatId, staleId);
      if (cancelled) return;
      // Handed over: stored as interrupted until the other instance takes it, which may first wait for
      // the stopping one to store it (continue-decided.ts): looked at a while longer, shown as it is meanwhile.
      const handing = fresh?.metadata?.status === "interrupted" && Date.now() < lookUntil;
      if (fresh && !handing) setMessages((current) => current.map((m) => (m.id === staleId ? fresh : m)));
      if ((!fresh || fresh.metadata?.status === "streaming" || handing) && ++tries < 60) timer = setTimeout(refresh, Math.min(300 * tries, 3000));
    };
    timer = setTimeout(refresh, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [staleId, chatId, setMessages, messagesRef]);
}
