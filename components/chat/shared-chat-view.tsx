"use client";
// A chat someone shared with you: read-only, live. While the owner's turn streams, it follows the
// turn's resumable stream (GET /api/chat/<id>/stream, a replay from the start then live; any number of
// viewers at once), and when the turn ends it reads the stored messages again. Between turns it asks
// every few seconds whether a new one started. Tool calls show as they do to the owner; approving stays
// the owner's (the cards say "Waiting for approval."). "Continue in my copy" when the share allows it.
// Like the owner's view it opens at the newest message and follows the stream, with "Jump to latest".
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { Copy, Eye } from "lucide-react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { MessageItem } from "./message-item";
import { AppHostContext } from "./app-view";
import { useChatScroll } from "./use-chat-scroll";
import { JumpToLatest } from "./jump-to-latest";
import { answerAtEnd, caughtUp } from "./use-resume-floor";
import { fetchBranchPage } from "./branch-page";
import { fetchJson } from "../shared/fetch-json";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";

/** How often a viewer asks whether the owner started a new turn. */
const IDLE_POLL_MS = 3_000;

async function storedMessages(chatId: string): Promise<ParleyUIMessage[] | undefined> {
  return (await fetchBranchPage(chatId))?.messages;
}

export function SharedChatView({
  chatId,
  title,
  owner,
  canContinue,
  initialMessages,
}: {
  chatId: string;
  title: string;
  owner: string;
  canContinue: boolean;
  initialMessages: ParleyUIMessage[];
}) {
  // MCP Apps views show here too, read only (a message a view asks to send is refused).
  const appHost = useMemo(() => ({ chatId }), [chatId]);
  const [messages, setMessages] = useState(initialMessages);
  const [live, setLive] = useState(false);
  const [gone, setGone] = useState(false);
  const [error, setError] = useState<string>();
  const [copying, setCopying] = useState(false);
  const router = useRouter();
  const transport = useRef(new DefaultChatTransport<ParleyUIMessage>({ api: "/api/chat" }));
  // Opens at the newest message and follows the answer as it streams, as the owner's view does.
  const { scrollRef, contentRef, isAtBottom, scrollToBottom } = useChatScroll();

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = async () => {
      const stream = await transport.current.reconnectToStream({ chatId }).catch(() => null);
      if (stopped) return;
      if (stream) {
        // The question and the answer so far are stored: show them, then the answer as it streams.
        const before = await storedMessages(chatId);
        if (before) setMessages(before);
        setLive(true);
        // The stream replays the answer from its first words: the stored answer stays until the replay has caught up with it.
        let floor = answerAtEnd(before);
        try {
          for await (const message of readUIMessageStream<ParleyUIMessage>({ stream })) {
            if (stopped) return;
            if (floor && message.id === floor.id && !caughtUp(message, floor)) continue;
            floor = undefined;
            setMessages((current) =>
              current.some((m) => m.id === message.id) ? current.map((m) => (m.id === message.id ? message : m)) : [...current, message],
            );
          }
        } catch {
          /* the stream broke off: the stored messages below tell how it ended */
        }
        setLive(false);
      }
      const after = await storedMessages(chatId);
      if (stopped) return;
      if (after) setMessages(after);
      // No longer shared (or deleted): the page says so and stops asking.
      else {
        setMessages([]);
        return setGone(true);
      }
      timer = setTimeout(() => void follow(), IDLE_POLL_MS);
    };
    void follow();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [chatId]);

  async function copy() {
    setCopying(true);
    setError(undefined);
    const copied = await fetchJson<{ id: string }>(`/api/chat/${chatId}/copy`, { method: "POST" }).catch(() => undefined);
    if (!copied) {
      setCopying(false);
      return setError("Could not make your copy. The chat may no longer be shared with you.");
    }
    router.push(`/chat/${copied.id}`);
  }

  return (
    <div className="flex h-full flex-col">
      <header className="flex min-h-12 items-center gap-2 border-b border-line px-4 py-2 pl-14 md:pl-4">
        <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</h1>
        <span className="flex items-center gap-1 text-xs text-subtle">
          <Eye className="size-3" aria-hidden /> Shared by {owner} · read only
        </span>
        {canContinue && (
          <Button size="sm" variant="secondary" onClick={() => void copy()} disabled={copying || gone} className="gap-1">
            <Copy className="size-4" aria-hidden /> {copying ? "Copying…" : "Continue in my copy"}
          </Button>
        )}
      </header>
      <div className="relative min-h-0 flex-1">
        <div ref={scrollRef} className="h-full overflow-y-auto" aria-live="polite" aria-busy={live}>
          <div ref={contentRef} className="mx-auto flex max-w-3xl flex-col gap-6 px-4 pb-6 pt-6">
            {gone && (
              <p role="alert" className="rounded-md border border-line-strong p-3 text-sm">
                This chat is no longer shared with you.
              </p>
            )}
            {messages.length === 0 && <p className="mt-20 text-center text-subtle">No messages yet.</p>}
            <AppHostContext.Provider value={appHost}>
              {messages.map((m, i) => (
                <MessageItem key={m.id} message={m} busy={live && i === messages.length - 1 && m.role === "assistant"} />
              ))}
            </AppHostContext.Provider>
            {live && (
              <p role="status" className="text-sm text-subtle">
                {owner} is chatting: following live…
              </p>
            )}
            <FormMessage message={error} />
          </div>
        </div>
        {!isAtBottom && <JumpToLatest onJump={() => void scrollToBottom()} />}
      </div>
    </div>
  );
}
