"use client";
// One message: its parts, its sources, its status and its actions (message-actions.tsx; a question
// opens for editing in place). Memoised, so a long chat does not re-render old messages for every
// streamed token (useChat keeps their objects stable; the actions are stable too).
import { memo, useRef, useState } from "react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { PartView } from "./message-parts";
import { AttachedFiles } from "./attachments/attached-files";
import { AttachedResources } from "./resource-view";
import { SourcesList } from "./citations";
import { AnswerActions, QuestionActions, type Direction, type MessageActions } from "./message-actions";
import { AnswerUsage } from "./answer-usage";
import { EditQuestion } from "./edit-question";
import { BatchDecisions, waitingForMember } from "./approval";

function plainText(message: ParleyUIMessage): string {
  return message.parts
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n\n");
}

export const MessageItem = memo(function MessageItem({
  message,
  busy,
  onRegenerate,
  actions,
  canContinue = false,
  focusVersion,
}: {
  message: ParleyUIMessage;
  /** This message is being written right now. */
  busy?: boolean;
  /** Regenerate from an error block. */
  onRegenerate?: (messageId: string) => void;
  actions?: MessageActions;
  /** A stopped (or step-limited) answer at the end of the chat: Continue is offered. */
  canContinue?: boolean;
  /** This version was just switched to: the switcher takes the focus. */
  focusVersion?: Direction;
}) {
  const isUser = message.role === "user";
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Numbered citations from the server; URL sources without numbers (older messages) number in order.
  const citations =
    message.metadata?.citations ??
    message.parts
      .flatMap((p, i, all) =>
        p.type === "source-url" && all.findIndex((q) => q.type === "source-url" && q.url === p.url) === i
          ? [{ url: p.url, title: p.title, origin: "provider_search" as const }]
          : [],
      )
      .map((c, i) => ({ ...c, n: i + 1 }));
  const status = message.metadata?.status;
  const text = plainText(message);
  const closeEditor = () => {
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <article
      aria-label={isUser ? "Your message" : "Assistant message"}
      data-role={message.role}
      data-status={status}
      className={`group flex flex-col gap-2 ${isUser ? "items-end" : "items-stretch"}`}
    >
      {isUser && editing && actions ? (
        <EditQuestion
          id={message.id}
          text={text}
          maxChars={actions.maxChars}
          onCancel={closeEditor}
          onSend={(edited) => {
            setEditing(false);
            actions.onEdit(message.id, edited);
          }}
        />
      ) : (
        <div className={isUser ? "max-w-[85%] whitespace-pre-wrap rounded-2xl bg-raised px-4 py-2" : "flex min-w-0 flex-col gap-3"}>
          {!isUser && <BatchDecisions approvalIds={waitingForMember(message.parts)} />}
          {isUser ? (
            <>
              {text}
              <AttachedFiles parts={message.parts} />
              <AttachedResources parts={message.parts} />
            </>
          ) : (
            message.parts.map((part, i) => (
              <PartView key={i} part={part} citations={message.metadata?.citations} onRegenerate={onRegenerate ? () => onRegenerate(message.id) : undefined} />
            ))
          )}
        </div>
      )}
      <SourcesList citations={citations} />
      {!isUser && status === "interrupted" && (
        <p className="text-sm text-caution">This answer was interrupted when the server stopped. What arrived before is kept.</p>
      )}
      {!isUser && !busy && <AnswerUsage usage={message.metadata?.usage} />}
      {actions &&
        !busy &&
        !editing &&
        (isUser ? (
          <QuestionActions message={message} actions={actions} onEdit={() => setEditing(true)} focus={focusVersion} editRef={editButton} />
        ) : (
          <AnswerActions message={message} text={text} actions={actions} canContinue={canContinue} focus={focusVersion} />
        ))}
    </article>
  );
});
