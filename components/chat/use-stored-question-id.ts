// The page's copy of a question takes the id it is stored under as soon as its answer starts (the
// answer's `questionId`), so it is the same message when the stored messages replace the live ones
// after the turn: it keeps its place in the list, and an editor opened on it stays open.
import { useEffect } from "react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";

/** The live question's id and the id it is stored under, when they differ. */
export function questionRename(messages: ParleyUIMessage[]): { from: string; to: string } | undefined {
  const [question, answer] = messages.slice(-2);
  const to = answer?.role === "assistant" ? answer.metadata?.questionId : undefined;
  if (!to || question?.role !== "user" || question.id === to) return undefined;
  return { from: question.id, to };
}

export function useStoredQuestionId(messages: ParleyUIMessage[], setMessages: (update: (current: ParleyUIMessage[]) => ParleyUIMessage[]) => void): void {
  const rename = questionRename(messages);
  const from = rename?.from;
  const to = rename?.to;
  useEffect(() => {
    if (from && to) setMessages((current) => current.map((m) => (m.id === from ? { ...m, id: to } : m)));
  }, [from, to, setMessages]);
}
