"use client";
// The member's decisions on an answer's waiting calls, from the chat page. Decided here, they go with
// the next turn request (useChat's approval responses, chat-transport.ts); when other calls of the
// answer wait for an admin, they are stored once all of this member's are made (the decisions route)
// and the answer goes on on the server once the admin has decided too. A new message while calls wait
// supersedes them: the page shows what the server stores for them (approvals.ts supersedePending).
import { useCallback, useRef, useState, type RefObject } from "react";
import type { ChatAddToolApproveResponseFunction } from "ai";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { focusComposer } from "../shared/focus-composer";
import { fetchJson, serverMessage } from "../shared/fetch-json";
import { waitingForMember, type ApprovalDecision } from "./approval";
import type { EditedInputs } from "./chat-transport";
import { waitsForAdmin, type Decided, type SetMessages } from "./use-stored-answer";

export type DecisionsOptions = {
  chatId: string;
  /** The page's messages as last rendered. */
  messagesRef: RefObject<ParleyUIMessage[]>;
  setMessages: SetMessages;
  /** useChat's approval response (the decision goes with the next turn request). */
  addToolApprovalResponse: ChatAddToolApproveResponseFunction;
  /** Inputs edited before approving, read by the transport when the decisions are sent. */
  edited: EditedInputs;
  /** The server's faces of superseded calls (lib/messages/tool-states.ts). */
  supersededFaces: { denied: string; aborted: string };
};

/**
 * `decide` for the approval cards; `decisionError` when the server did not take them; `waitTick`
 * counts decisions stored while an admin's are pending (the admin-wait poll looks sooner); `supersede`
 * for a new message.
 */
export function useDecisions({ chatId, messagesRef, setMessages, addToolApprovalResponse, edited, supersededFaces }: DecisionsOptions) {
  const decidedHere = useRef(new Map<string, ApprovalDecision>());
  const [decisionError, setDecisionError] = useState<string>();
  const [waitTick, setWaitTick] = useState(0);
  const decide = useCallback(
    async (d: ApprovalDecision) => {
      const post = (url: string, body: unknown) => fetchJson(url, { method: "POST", body }).catch(() => undefined);
      if (d.alwaysAllowToolId) await post("/api/tools/preferences", { toolId: d.alwaysAllowToolId, alwaysAllow: true });
      if (d.allowForChatToolId) await post(`/api/chat/${chatId}/allowed-tools`, { toolId: d.allowForChatToolId });
      if (d.input) edited.set(d.approvalId, d.input);
      focusComposer(); // the card's buttons go away with the decision
      const answer = messagesRef.current[messagesRef.current.length - 1];
      if (!answer || !waitsForAdmin(answer)) return void addToolApprovalResponse({ id: d.approvalId, approved: d.approved, reason: d.reason });
      // Other calls of this answer wait for an admin: this member's decisions are stored once all of
      // theirs are made, and the answer goes on (on the server) when the admin has decided too.
      decidedHere.current.set(d.approvalId, d);
      const mine = waitingForMember(answer.parts);
      setMessages((current) =>
        current.map((m) =>
          m.id !== answer.id
            ? m
            : {
                ...m,
                parts: m.parts.map((p) =>
                  (p as Decided).approval?.id === d.approvalId
                    ? ({ ...p, state: "approval-responded", approval: { ...(p as Decided).approval!, approved: d.approved, reason: d.reason } } as typeof p)
                    : p,
                ),
              },
        ),
      );
      if (!mine.every((id) => decidedHere.current.has(id))) return;
      const approvals = mine.map((id) => {
        const x = decidedHere.current.get(id)!;
        return { approvalId: id, approved: x.approved, ...(x.reason ? { reason: x.reason } : {}), ...(x.input ? { input: x.input } : {}) };
      });
      decidedHere.current.clear();
      await fetchJson(`/api/chat/${chatId}/decisions`, { method: "POST", body: { approvals } }).catch((err: unknown) =>
        setDecisionError(serverMessage(err) ?? "Your decisions could not be saved."),
      );
      setWaitTick((t) => t + 1);
    },
    [addToolApprovalResponse, chatId, setMessages, edited, messagesRef],
  );

  /**
   * A new message while calls wait (or were decided but never ran): the server ends them as superseded
   * (approvals.ts supersedePending); show that here too, with the server's faces.
   */
  const supersede = useCallback(() => {
    const open = (p: Decided) => p.state === "approval-requested" || p.state === "approval-responded";
    const end = (p: Decided): Decided =>
      p.state === "approval-requested"
        ? { ...p, state: "output-denied", approval: { ...p.approval!, approved: false, reason: supersededFaces.denied } }
        : p.approval?.approved
          ? ({ ...p, state: "output-error", errorText: supersededFaces.aborted } as Decided)
          : { ...p, state: "output-denied" };
    setMessages((current) =>
      current.map((m) =>
        m.role === "assistant" && (m.parts as Decided[]).some(open)
          ? { ...m, parts: m.parts.map((p) => (open(p as Decided) ? (end(p as Decided) as typeof p) : p)) }
          : m,
      ),
    );
  }, [setMessages, supersededFaces]);

  return { decide, decisionError, waitTick, supersede };
}
