// What the chat page sends to POST /api/chat: only what is new, never history (lib/turn/request.ts).
// A new message (or an edit of one: `editOf`), a regenerate, Continue after Stop (`continueOf`), or
// the decisions on the last answer's waiting calls; with the picked model, and for a draft chat's
// first message its tools and knowledge bases. Counts the requests it has sent, so a refresh after a turn can tell that
// a newer one started meanwhile, and tells whether the server refused the last one (a budget, the
// rate limit: nothing was stored, so the page gives the typed message back), and what such a refusal says.
import { DefaultChatTransport } from "ai";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { messageWithAttachments } from "./attachments/message-attachments";

type Decided = { state?: string; approval?: { id: string; approved?: boolean; reason?: string; decidedAt?: string } };

/** Inputs this member edited before approving, by approval id (kept by chat-view.tsx until they are sent). */
export type EditedInputs = Map<string, Record<string, unknown>>;

/**
 * The decisions on the last answer's waiting calls: all the server accepts for them. Calls decided on
 * the server already (by an admin: they carry `decidedAt`) are not sent again.
 */
export function decisionsOf(message: ParleyUIMessage | undefined, edited?: EditedInputs) {
  if (message?.role !== "assistant") return undefined;
  const decided = (message.parts as Decided[]).filter((p) => p.state === "approval-responded" && p.approval && !p.approval.decidedAt);
  return decided.length
    ? decided.map((p) => {
        const input = p.approval!.approved ? edited?.get(p.approval!.id) : undefined;
        return {
          approvalId: p.approval!.id,
          approved: p.approval!.approved === true,
          ...(p.approval!.reason ? { reason: p.approval!.reason } : {}),
          ...(input ? { input } : {}),
        };
      })
    : undefined;
}

export function chatTransport(edited?: EditedInputs) {
  let sent = 0;
  let refused = false;
  const transport = new DefaultChatTransport<ParleyUIMessage>({
    api: "/api/chat",
    // A raw fetch, not fetchJson: the answer is a stream (SSE) that the AI SDK reads as it comes.
    fetch: async (input, init) => {
      refused = false;
      const res = await fetch(input, init);
      refused = !res.ok;
      return res;
    },
    // `body` carries the options of sendMessage / regenerate (chat-view.tsx).
    prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => {
      sent++;
      const last = messages[messages.length - 1];
      const approvals = decisionsOf(last, edited);
      return {
        body: {
          ...(trigger === "regenerate-message"
            ? { id, trigger, messageId }
            : typeof body?.continueOf === "string"
              ? { id, trigger, continueOf: body.continueOf }
              : approvals
                ? { id, trigger, approvals }
                : { id, trigger, ...messageWithAttachments(last), ...(typeof body?.editOf === "string" ? { editOf: body.editOf } : {}) }),
          ...(typeof body?.modelId === "string" && body.modelId ? { modelId: body.modelId } : {}),
          ...(Array.isArray(body?.resources) ? { resources: body.resources } : {}),
          ...(body?.newChat === true
            ? {
                newChat: true,
                ...(body.tools ? { tools: body.tools } : {}),
                ...(body.knowledge ? { knowledge: body.knowledge } : {}),
                ...(typeof body.projectId === "string" ? { projectId: body.projectId } : {}),
              }
            : {}),
        },
      };
    },
  });
  return { transport, requestsSent: () => sent, lastRefused: () => refused };
}

/** What to show for a turn request the server refused: the AI SDK's error carries the answer's body, the error envelope. */
export function turnErrorMessage(err: Error | undefined): string | undefined {
  if (!err) return undefined;
  try {
    const body = JSON.parse(err.message) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    /* not JSON */
  }
  return err.message || "Something went wrong.";
}
