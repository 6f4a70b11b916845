"use client";
// MCP Apps, the browser half of the host: a tool's interactive view inside its block. The page comes
// from GET /api/chat/[id]/app (an opaque origin: sandbox="allow-scripts" here and the page's own CSP
// sandbox, so no script of the view reaches Parley's origin). The ext-apps AppBridge talks to it over
// postMessage: it sends the call's input and result, follows the view's size within bounds, and asks
// the member before a link opens or a message is sent. A view's tool calls go to the server
// (POST /api/chat/[id]/app/call), which runs only what the member's approval policy runs without asking.
import { createContext, useContext, useEffect, useRef, useState } from "react";
import { AppWindow, Loader2 } from "lucide-react";
import { Button } from "../ui/button";

/** What the chat gives views: its id, and a way to send a message (only where the member may). */
export type AppHost = { chatId: string; send?: (text: string) => void };
export const AppHostContext = createContext<AppHost | undefined>(undefined);

const MIN_HEIGHT = 60;
const MAX_HEIGHT = 720;
const START_HEIGHT = 200;
/** How long a view has to start (ui/initialize) before the block says it did not. */
const START_TIMEOUT_MS = 20_000;

type Ask = { kind: "link"; url: string; done: (ok: boolean) => void } | { kind: "message"; text: string; done: (ok: boolean) => void };

const isHttp = (u: string) => /^https?:\/\//i.test(u);

export function AppView({ toolCallId, title, input, output }: { toolCallId: string; title: string; input: unknown; output: unknown }) {
  const host = useContext(AppHostContext);
  const frame = useRef<HTMLIFrameElement>(null);
  const [src, setSrc] = useState<string>();
  const [phase, setPhase] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState<string>();
  const [height, setHeight] = useState(START_HEIGHT);
  const [ask, setAsk] = useState<Ask>();
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
    void (async () => {
      const { AppBridge, PostMessageTransport } = await import("@modelcontextprotocol/ext-apps/app-bridge");
      if (closed) return;
      const dark = document.documentElement.classList.contains("dark");
      const b = new AppBridge(
        null,
        { name: "Parley", version: "0.1.0" },
        { openLinks: {}, serverTools: {}, message: { text: {} }, logging: {} },
        {
          hostContext: {
            theme: dark ? "dark" : "light",
            displayMode: "inline",
            availableDisplayModes: ["inline"],
            containerDimensions: { maxHeight: MAX_HEIGHT },
            locale: navigator.language,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            platform: "web",
          },
        },
      );
      bridge = b;
      b.oninitialized = () => {
        clearTimeout(timer);
        if (closed) return;
        setPhase("ready");
        const { input: args, output: result } = latest.current;
        void b.sendToolInput({ arguments: (args ?? {}) as Record<string, unknown> });
        void b.sendToolResult(result as Parameters<typeof b.sendToolResult>[0]);
      };
      b.onsizechange = ({ height: h }) => {
        if (typeof h === "number" && Number.isFinite(h)) setHeight(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, h))));
      };
      // A view's tool call runs on the server under the member's approval policy; a refusal is an error result.
      b.oncalltool = async ({ name, arguments: args }) => {
        const res = await fetch(`/api/chat/${encodeURIComponent(chatId)}/app/call`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ call: toolCallId, name, arguments: args ?? {} }),
        }).catch(() => undefined);
        const body = (await res?.json().catch(() => null)) as { result?: Awaited<ReturnType<NonNullable<typeof b.oncalltool>>>; error?: { message?: string } } | null;
        if (res?.ok && body?.result) return body.result;
        return { isError: true, content: [{ type: "text", text: body?.error?.message ?? "The tool call could not be made." }] };
      };
      b.onopenlink = ({ url }) =>
        new Promise((resolve) => {
          if (!isHttp(url)) return resolve({ isError: true });
          setAsk({ kind: "link", url, done: (ok) => resolve(ok ? {} : { isError: true }) });
        });
      b.onmessage = ({ content }) =>
        new Promise((resolve) => {
          const text = content
            .flatMap((c) => (c.type === "text" ? [c.text] : []))
            .join("\n")
            .slice(0, 10_000);
          if (!text.trim() || !latest.current.send) return resolve({ isError: true });
          setAsk({ kind: "message", text, done: (ok) => resolve(ok ? {} : { isError: true }) });
        });
      b.onrequestdisplaymode = async () => ({ mode: "inline" });
      b.onloggingmessage = () => {};
      await b.connect(new PostMessageTransport(win, win));
      if (!closed) setSrc(`/api/chat/${encodeURIComponent(chatId)}/app?call=${encodeURIComponent(toolCallId)}`);
    })().catch(() => fail("The app could not be started."));
    return () => {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener("message", onRefusal);
      void bridge?.close().catch(() => {});
    };
  }, [chatId, toolCallId]);

  if (!host) return null;
  const answer = (ok: boolean) => {
    if (!ask) return;
    if (ok && ask.kind === "link") window.open(ask.url, "_blank", "noopener,noreferrer");
    if (ok && ask.kind === "message") latest.current.send?.(ask.text);
    ask.done(ok);
    setAsk(undefined);
  };
  return (
    <div className="flex flex-col gap-2" data-app-view={phase}>
      <p className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
        <AppWindow className="size-3.5" aria-hidden /> App from the tool&apos;s server, shown in a sandbox
      </p>
      {phase === "loading" && (
        <p role="status" className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
          <Loader2 className="size-3 animate-spin" aria-hidden /> Loading the app…
        </p>
      )}
      {phase === "error" && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300" data-app-error>
          The app could not be shown: {error}
        </p>
      )}
      <iframe
        ref={frame}
        src={src}
        title={`${title} app`}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        className={`w-full rounded border border-zinc-200 bg-white dark:border-zinc-800 ${phase === "error" ? "hidden" : ""}`}
        style={{ height }}
      />
      {ask && (
        <div role="group" aria-label={ask.kind === "link" ? "The app asks to open a link" : "The app asks to send a message"} className="flex flex-col gap-2 rounded-md bg-amber-50 p-3 dark:bg-amber-950">
          <p className="text-sm text-zinc-900 dark:text-zinc-100">
            {ask.kind === "link" ? "The app asks to open this link in a new tab:" : "The app asks to send this message in the chat:"}
          </p>
          <p className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">{ask.kind === "link" ? ask.url : ask.text}</p>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => answer(true)}>
              {ask.kind === "link" ? "Open link" : "Send message"}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => answer(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
