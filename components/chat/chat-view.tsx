"use client";
// The chat: messages from the server (newest page first, older pages on demand), a live turn through
// useChat (resumed after a reload), and the composer. Stop goes to the server, which owns the turn.
// A new chat is a draft until its first message, which stores it (with the model and tools picked
// for it): the address becomes /chat/<id> once the server has it, and the title the turn sends
// (data-title parts) reaches the header and the sidebar as it comes. The list opens at the newest
// message and follows a streaming answer (use-chat-scroll.ts); answers can be regenerated, questions
// edited and resent, a stopped (or step-limited) answer continued, and versions switched (use-branches.ts); each of
// these but the switch is a turn, sent through useChat. Decisions on waiting calls: use-decisions.ts;
// what the page reads back while it follows no stream (an admin's decision, a refused decision, an
// answer still being written): use-stored-answer.ts.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useChat } from "@ai-sdk/react";
import { generateId, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import type { PickerGroup } from "@/lib/providers/models";
import type { ToolSelection } from "@/lib/tools/selection";
import { announceChats } from "../shared/chat-events";
import { useChatTitle } from "./chat-title";
import { ModelPicker } from "./model-picker";
import { ToolPicker } from "./tool-picker";
import { KnowledgePicker } from "./knowledge-picker";
import type { KnowledgeChoice } from "@/lib/knowledge/chat-bases";
import { choicesSaved } from "./choice-saves";
import { MessageItem } from "./message-item";
import { Composer } from "./composer";
import { AddFilesButton, PendingFiles } from "./attachments/add-files";
import { useAttachments } from "./attachments/use-attachments";
import { ApprovalContext } from "./approval";
import { FormMessage } from "../ui/field";
import { Button } from "../ui/button";
import { focusComposer } from "../shared/focus-composer";
import { continuable, type MessageActions } from "./message-actions";
import { useBranches } from "./use-branches";
import { fetchBranchPage } from "./branch-page";
import { useStoredQuestionId } from "./use-stored-question-id";
import { chatTransport, decisionsOf, turnErrorMessage, type EditedInputs } from "./chat-transport";
import { useChatScroll } from "./use-chat-scroll";
import { JumpToLatest } from "./jump-to-latest";
import { useStopTurn } from "./use-stop-turn";
import { useDecisions } from "./use-decisions";
import { useAdminWait, useRefusedDecisions, useStaleAnswer } from "./use-stored-answer";
import { ChatUsageTotal } from "./answer-usage";
import { AppHostContext, useAppHost } from "./app-view";
import { useResumeFloor } from "./use-resume-floor";

export type ChatViewProps = {
  chatId: string;
  initialMessages: ParleyUIMessage[];
  hasMore: boolean;
  firstSeq?: number;
  /** A turn was running when the page was rendered: reconnect to it. */
  resume: boolean;
  maxChars: number;
  /** Enabled models grouped by provider, and the one this chat uses now. */
  models?: { groups: PickerGroup[]; selected: string | null };
  /** The server's faces of calls a new message supersedes (lib/messages/tool-states.ts). */
  supersededFaces: { denied: string; aborted: string };
  /** Shown while the chat has no messages. */
  emptyState?: React.ReactNode;
  /** A draft started in a project: its id (sent with the first message) and its default tools, if any. */
  project?: { id: string; tools: ToolSelection | null };
};

export function ChatView({
  chatId,
  initialMessages,
  hasMore: initialHasMore,
  firstSeq: initialFirstSeq,
  resume,
  maxChars,
  models,
  supersededFaces,
  emptyState,
  project,
}: ChatViewProps) {
  const [modelId, setModelId] = useState(models?.selected ?? "");
  const { stored, setStored, setTitle } = useChatTitle();
  const draftTools = useRef<ToolSelection | undefined>(undefined);
  const draftKnowledge = useRef<KnowledgeChoice | undefined>(undefined);
  // Inputs this member edited before approving, until the decisions are sent (the transport reads them).
  const [edited] = useState<EditedInputs>(() => new Map());
  const { transport, requestsSent, lastRefused } = useMemo(() => chatTransport(edited), [edited]);
  const attach = useAttachments();
  const { messages, sendMessage, status, error, regenerate, setMessages, clearError, addToolApprovalResponse } = useChat<ParleyUIMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    resume,
    throttle: 50,
    // Once every waiting call of the answer is decided (approved or denied) here, the decisions are sent;
    // never while a call waits for an admin (those decisions go to the decisions route instead).
    sendAutomaticallyWhen: ({ messages: all }) => lastAssistantMessageIsCompleteWithApprovalResponses({ messages: all }) && !!decisionsOf(all[all.length - 1]),
    // The chat's title, sent by its first turn: the first one also says the chat is stored now.
    onData: (part) => {
      if (part.type !== "data-title") return;
      if (!stored) {
        setStored();
        window.history.replaceState(null, "", `/chat/${chatId}`);
      }
      setTitle(part.data.title);
      announceChats({ id: chatId });
    },
    // A turn moves its chat to the top of the list, and the stored branch replaces the live one.
    onFinish: ({ messages: finished, isDisconnect }) => {
      announceChats({ id: chatId });
      if (!isDisconnect) void afterTurn.current?.(finished);
    },
  });
  const afterTurn = useRef<(finished: ParleyUIMessage[]) => Promise<void>>(undefined);

  const last = messages[messages.length - 1];
  // What the list renders: a resumed answer never shows less than the page was rendered with.
  const shown = useResumeFloor(messages, initialMessages, resume);

  const messagesRef = useRef(messages);
  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);
  const { decide, decisionError, waitTick, supersede } = useDecisions({ chatId, messagesRef, setMessages, addToolApprovalResponse, edited, supersededFaces });
  const polls = { chatId, status, last, setMessages };
  useAdminWait(polls, waitTick);

  useRefusedDecisions(polls);
  const [older, setOlder] = useState<{ hasMore: boolean; firstSeq?: number; loading: boolean }>({
    hasMore: initialHasMore,
    firstSeq: initialFirstSeq,
    loading: false,
  });
  const busy = status === "submitted" || status === "streaming";
  const { scrollRef, contentRef, isAtBottom, scrollToBottom, keepPlace } = useChatScroll();
  const branches = useBranches({ chatId, setMessages, setOlder, requestsSent });
  useStoredQuestionId(messages, setMessages);
  useEffect(() => {
    afterTurn.current = branches.refresh;
  }, [branches.refresh]);

  const loadEarlier = useCallback(async () => {
    if (!older.firstSeq) return;
    setOlder((o) => ({ ...o, loading: true }));
    const page = await fetchBranchPage(chatId, older.firstSeq);
    if (!page) return setOlder((o) => ({ ...o, loading: false }));
    keepPlace();
    setMessages((current) => [...page.messages, ...current]);
    setOlder({ hasMore: page.hasMore, firstSeq: page.firstSeq, loading: false });
  }, [chatId, older.firstSeq, setMessages, keepPlace]);

  const stopTurn = useStopTurn(chatId, busy);
  const stop = useCallback(async () => {
    focusComposer(); // Stop turns back into Send
    await stopTurn();
  }, [stopTurn]);

  const onRegenerate = useCallback(
    (messageId: string) => {
      clearError();
      void regenerate({ messageId, body: { modelId } });
    },
    [regenerate, clearError, modelId],
  );

  const actions = useMemo<MessageActions>(
    () => ({
      disabled: busy || branches.switching,
      maxChars,
      onRegenerate,
      onEdit: (messageId, text) => {
        clearError();
        supersede();
        void choicesSaved(chatId).then(() => sendMessage({ text, messageId }, { body: { modelId, editOf: messageId } }));
      },
      onContinue: (messageId) => {
        clearError();
        void scrollToBottom();
        void choicesSaved(chatId).then(() => sendMessage(undefined, { body: { modelId, continueOf: messageId } }));
      },
      onSwitch: (messageId, direction) => void branches.switchVersion(messageId, direction),
    }),
    [busy, branches, maxChars, onRegenerate, clearError, supersede, sendMessage, modelId, scrollToBottom, chatId],
  );

  useStaleAnswer(polls, messagesRef);

  // MCP Apps views in tool blocks: a message a view asks to send (and the member confirms) is sent as theirs.
  const appHost = useAppHost(chatId, busy ? undefined : (text) => void choicesSaved(chatId).then(() => sendMessage({ text }, { body: { modelId } })));

  return (
    <ApprovalContext.Provider value={decide}>
      <AppHostContext.Provider value={appHost}>
        <div className="flex h-full flex-col">
          <div className="relative min-h-0 flex-1">
            <div ref={scrollRef} className="h-full overflow-y-auto" aria-live="polite" aria-busy={busy}>
              <div ref={contentRef} className="mx-auto flex max-w-3xl flex-col gap-6 px-4 pb-6 pt-14 md:pt-6">
                {older.hasMore && (
                  <Button variant="secondary" size="sm" onClick={loadEarlier} disabled={older.loading} className="self-center">
                    {older.loading ? "Loading…" : "Load earlier messages"}
                  </Button>
                )}
                {messages.length === 0 && (emptyState ?? <p className="mt-20 text-center text-subtle">Send a message to start.</p>)}
                {shown.map((m) => (
                  <MessageItem
                    key={m.id}
                    message={m}
                    busy={busy && m.id === last?.id && m.role === "assistant"}
                    onRegenerate={!busy && m.role === "assistant" ? onRegenerate : undefined}
                    actions={actions}
                    canContinue={m.id === last?.id && continuable(m)}
                    focusVersion={branches.focus?.id === m.id ? branches.focus.direction : undefined}
                  />
                ))}
                {!busy && <ChatUsageTotal messages={messages} />}
                {status === "submitted" && (
                  <p className="text-sm text-subtle" role="status">
                    Waiting for the model…
                  </p>
                )}
                {!last?.parts.some((p) => p.type === "data-error") && <FormMessage message={turnErrorMessage(error)} />}
                <FormMessage message={branches.error} />
                <FormMessage message={decisionError} />
              </div>
            </div>
            {!isAtBottom && <JumpToLatest onJump={() => void scrollToBottom()} />}
          </div>
          <Composer
            busy={busy}
            maxChars={maxChars}
            onStop={stop}
            onFiles={attach.add}
            holdSend={attach.uploading}
            above={<PendingFiles files={attach.files} onRemove={attach.remove} />}
            onSend={(text, attached) => {
              supersede();
              void scrollToBottom();
              const files = attach.parts;
              const pending = attach.files;
              attach.clear();
              // Attached MCP resources show as chips at once; the server reads them (resources in the body).
              const chips = attached.map((a) => ({ type: "data-resource" as const, data: { serverId: a.serverId, serverName: a.serverName, uri: a.uri } }));
              const resources = attached.length ? { resources: attached.map(({ serverId, uri }) => ({ serverId, uri })) } : {};
              const id = generateId();
              // A tool or knowledge base ticked a moment ago is still being saved: the turn reads the choice from the server.
              // A new chat's choice goes with its first message instead.
              const sent = choicesSaved(chatId)
                .then(() =>
                  sendMessage(
                    { id, parts: [{ type: "text", text }, ...files, ...chips] },
                    {
                      body: {
                        modelId,
                        ...resources,
                        ...(stored ? {} : { newChat: true, tools: draftTools.current, knowledge: draftKnowledge.current, projectId: project?.id }),
                      },
                    },
                  ),
                )
                .then(() => !lastRefused());
              // Refused (a budget, the rate limit, a turn still running): nothing was stored, so the message
              // leaves the list and goes back to the box with its files, to be sent when it can be.
              void sent.then((accepted) => {
                if (accepted) return;
                setMessages((current) => current.filter((m) => m.id !== id));
                attach.restore(pending);
              });
              return sent;
            }}
            toolbar={
              <>
                <AddFilesButton onFiles={attach.add} disabled={busy} />
                {models && <ModelPicker groups={models.groups} value={modelId} onChange={setModelId} disabled={busy} />}
                <ToolPicker
                  chatId={chatId}
                  disabled={busy}
                  draft={!stored}
                  onDraft={(selection) => (draftTools.current = selection)}
                  start={project?.tools ?? undefined}
                />
                <KnowledgePicker
                  chatId={chatId}
                  disabled={busy}
                  draft={!stored}
                  projectId={project?.id}
                  onDraft={(choice) => (draftKnowledge.current = choice)}
                />
              </>
            }
          />
        </div>
      </AppHostContext.Provider>
    </ApprovalContext.Provider>
  );
}
