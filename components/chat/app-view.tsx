"use client";
// MCP Apps, the browser half of the host: a tool's interactive view inside its block. The page comes
// from GET /api/chat/[id]/app (an opaque origin: sandbox="allow-scripts" here and the page's own CSP
// sandbox, so no script of the view reaches Parley's origin). The ext-apps AppBridge talks to it over
// postMessage: it sends the call's input and result and the host's theme (again whenever it changes),
// follows the view's size within bounds, and asks the member before a link opens or a message is sent.
// A view's tool calls go to the server (POST /api/chat/[id]/app/call) under the member's approval
// policy: a tool that asks first is put to the member under the view while the view's call waits, and
// a call the server refuses says why under the view as well as to the view.
import { createContext, useContext, useEffect, useMemo, useRef, useState } from "react";
import { AppWindow, Loader2 } from "lucide-react";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { ApiError, fetchJson, serverMessage } from "../shared/fetch-json";
import { AppAskCard, type AppAsk } from "./app-asks";

/** What the chat gives views: its id, and a way to send a message (only where the member may). */
/** The chat around a view: `send` puts a message in the chat as the member's and says whether it went (not while an answer streams). */
export type AppHost = { chatId: string; send?: (text: string) => boolean };
export const AppHostContext = createContext<AppHost | undefined>(undefined);

/** A chat's host for its views: `send` goes to the chat's latest sender (none while an answer streams), and the host stays the same object. */
export function useAppHost(chatId: string, send: ((text: string) => void) | undefined): AppHost {
  const latest = useRef(send);
  useEffect(() => {
    latest.current = send;
  });
  return useMemo(
    () => ({
      chatId,
      send: (text) => {
        const sender = latest.current;
        sender?.(text);
        return !!sender;
      },
    }),
    [chatId],
  );
}

const MIN_HEIGHT = 60;
const MAX_HEIGHT = 720;
const START_HEIGHT = 200;
/** How long a view has to start (ui/initialize) before the block says it did not. */
const START_TIMEOUT_MS = 20_000;

const isHttp = (u: string) => /^https?:\/\//i.test(u);
const theme = () => (document.documentElement.classList.contains("dark") ? "dark" : "light");

type CallResult = { isError?: boolean; content: { type: "text"; text: string }[] };
const refusal = (text: string): CallResult => ({ isError: true, content: [{ type: "text", text }] });

export function AppView({ toolCallId, title, input, output }: { toolCallId: string; title: string; input: unknown; output: unknown }) {
  const host = useContext(AppHostContext);
  const frame = useRef<HTMLIFrameElement>(null);
  const [src, setSrc] = useState<string>();
  const [phase, setPhase] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState<string>();
  const [height, setHeight] = useState(START_HEIGHT);
  const [ask, setAsk] = useState<AppAsk>();
  /** Why the member's yes to the question could not be carried out yet. */
  const [askNote, setAskNote] = useState<string>();
  /** Why the server refused the view's last tool call (the view may not show it). */
  const [refused, setRefused] = useState<string>();
  const chatId = host?.chatId;
  const send = host?.send;
  // The latest values for the bridge's callbacks, without reconnecting the view when they change.
  const latest = useRef({ input, output, send });
  useEffect(() => {
    latest.current = { input, output, send };
  }, [input, output, send]);

  useEffect(() => {
    const win = frame.current?.contentWindow;
    if (!chatId || !win) return;
    let closed = false;
    // A view that never says ui/initialize: the block says so.
    const timer = setTimeout(() => fail("The app did not start."), START_TIMEOUT_MS);
    const fail = (message: string) => {
      if (closed) return;
      clearTimeout(timer);
      setPhase("error");
      setError(message);
    };
    // The route's refusal page says what went wrong (only from this frame's window).
    const onRefusal = (e: MessageEvent) => {
      const d = e.data as { type?: string; message?: string } | null;
      if (e.source === win && d?.type === "parley/app-error") fail(typeof d.message === "string" ? d.message.slice(0, 500) : "The app could not be shown.");
    };
    window.addEventListener("message", onRefusal);
    let bridge: { close(): Promise<void> } | undefined;
    let themeWatch: MutationObserver | undefined;
    /** One question at a time: a new one answers the one before with no. */
    const askPerson = (next: AppAsk) => {
      setAskNote(undefined);
      setAsk((prev) => {
        prev?.done(false);
        return next;
      });
    };
    void (async () => {
      const { AppBridge, PostMessageTransport } = await import("@modelcontextprotocol/ext-apps/app-bridge");
      if (closed) return;
      const hostContext = (): McpUiHostContext => ({
        theme: theme(),
        displayMode: "inline",
        availableDisplayModes: ["inline"],
        containerDimensions: { maxHeight: MAX_HEIGHT },
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        platform: "web",
      });
      const b = new AppBridge(
        null,
        { name: "Parley", version: "0.1.0" },
        { openLinks: {}, serverTools: {}, message: { text: {} }, logging: {} },
        { hostContext: hostContext() },
      );
      bridge = b;
      // The member switches light/dark (the class on <html>): the view hears it (host-context-changed,
      // sent only for what changed; the whole context is given because it replaces the old one).
      themeWatch = new MutationObserver(() => b.setHostContext(hostContext()));
      themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
      b.addEventListener("initialized", () => {
        clearTimeout(timer);
        if (closed) return;
        setPhase("ready");
        const { input: args, output: result } = latest.current;
        void b.sendToolInput({ arguments: (args ?? {}) as Record<string, unknown> });
        void b.sendToolResult(result as Parameters<typeof b.sendToolResult>[0]);
      });
      b.addEventListener("sizechange", ({ height: h }) => {
        if (typeof h === "number" && Number.isFinite(h)) setHeight(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, h))));
      });
      /** The server's result of the call, or why it refused it. */
      const post = (name: string, args: Record<string, unknown>, approved: boolean): Promise<{ result?: CallResult; error?: unknown }> =>
        fetchJson<{ result?: CallResult } | undefined>(`/api/chat/${encodeURIComponent(chatId)}/app/call`, {
          method: "POST",
          body: { call: toolCallId, name, arguments: args, ...(approved ? { approved } : {}) },
        }).then(
          (body) => ({ result: body?.result }),
          (error: unknown) => ({ error }),
        );
      // A view's tool call runs on the server under the member's approval policy.
      b.oncalltool = async ({ name, arguments: given }) => {
        const args = (given ?? {}) as Record<string, unknown>;
        setRefused(undefined);
        let answer = await post(name, args, false);
        if (answer.error instanceof ApiError && answer.error.status === 409 && answer.error.code === "ApprovalNeeded") {
          // The member decides under the view; the view's call waits for it.
          const yes = await new Promise<boolean>((resolve) => askPerson({ kind: "tool", name, input: args, done: resolve }));
          if (!yes) return refusal(`You declined “${name}”.`) as Awaited<ReturnType<NonNullable<typeof b.oncalltool>>>;
          answer = await post(name, args, true);
        }
        if (answer.result) return answer.result as Awaited<ReturnType<NonNullable<typeof b.oncalltool>>>;
        const why = serverMessage(answer.error) ?? "The tool call could not be made.";
        if (!closed) setRefused(`The app's call to “${name}” did not run: ${why}`);
        return refusal(why) as Awaited<ReturnType<NonNullable<typeof b.oncalltool>>>;
      };
      b.onopenlink = ({ url }) =>
        new Promise((resolve) => {
          if (!isHttp(url)) return resolve({ isError: true });
          askPerson({ kind: "link", url, done: (ok) => resolve(ok ? {} : { isError: true }) });
        });
      b.onmessage = ({ content }) =>
        new Promise((resolve) => {
          const text = content
            .flatMap((c) => (c.type === "text" ? [c.text] : []))
            .join("\n")
            .slice(0, 10_000);
          if (!text.trim() || !latest.current.send) return resolve({ isError: true });
          askPerson({ kind: "message", text, done: (ok) => resolve(ok ? {} : { isError: true }) });
        });
      b.onrequestdisplaymode = async () => ({ mode: "inline" });
      await b.connect(new PostMessageTransport(win, win));
      if (!closed) setSrc(`/api/chat/${encodeURIComponent(chatId)}/app?call=${encodeURIComponent(toolCallId)}`);
    })().catch(() => fail("The app could not be started."));
    return () => {
      closed = true;
      clearTimeout(timer);
      themeWatch?.disconnect();
      window.removeEventListener("message", onRefusal);
      void bridge?.close().catch(() => {});
    };
  }, [chatId, toolCallId]);

  if (!host) return null;
  const answer = (ok: boolean) => {
    if (!ask) return;
    if (ok && ask.kind === "link") window.open(ask.url, "_blank", "noopener,noreferrer");
    // A message is not sent while an answer streams: the question stays, and the view hears nothing yet.
    if (ok && ask.kind === "message" && !latest.current.send?.(ask.text))
      return setAskNote("The chat is still answering. Send the message once the answer has ended.");
    ask.done(ok);
    setAsk(undefined);
    setAskNote(undefined);
  };
  return (
    <div className="flex flex-col gap-2" data-app-view={phase}>
      <p className="flex items-center gap-1.5 text-xs text-subtle">
        <AppWindow className="size-3.5" aria-hidden /> App from the tool&apos;s server, shown in a sandbox
      </p>
      {phase === "loading" && (
        <p role="status" className="flex items-center gap-1.5 text-xs text-subtle">
          <Loader2 className="size-3 animate-spin" aria-hidden /> Loading the app…
        </p>
      )}
      {phase === "error" && (
        <p role="alert" className="text-xs text-error" data-app-error>
          The app could not be shown: {error}
        </p>
      )}
      <iframe
        ref={frame}
        src={src}
        title={`${title} app`}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        className={`w-full rounded border border-line bg-white ${phase === "error" ? "hidden" : ""}`}
        style={{ height }}
      />
      {refused && !ask && (
        <p role="status" className="text-xs text-error" data-app-refused>
          {refused}
        </p>
      )}
      {ask && <AppAskCard ask={ask} answer={answer} note={askNote} />}
    </div>
  );
}
