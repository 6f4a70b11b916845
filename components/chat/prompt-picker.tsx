"use client";
// Prompts as commands: typing "/" at the start of the message box lists the team's MCP prompts
// (filtered by what follows the slash) in a Radix popover above the composer. The message box stays
// the focus and drives the list as a combobox (WAI-ARIA, aria-activedescendant): arrows move, Enter
// or Tab picks, Escape closes; while the list is open Enter never sends the half-typed "/…".
// A prompt with arguments asks for them in a small form (which takes focus); the prompt's messages
// replace the "/…" text in the box, ready to edit and send.
import { useId, useState } from "react";
import { Loader2, SquareSlash } from "lucide-react";
import type { CatalogServer } from "@/lib/mcp-chat/mcp-catalog";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Popover, PopoverAnchor, PopoverContent } from "../ui/popover";
import { fetchJson, serverMessage } from "../shared/fetch-json";
import type { Catalog } from "./use-mcp-catalog";

export type Prompt = CatalogServer["prompts"][number] & { serverId: string; serverName: string };

/** The prompts "/query" lists (at most 30). */
export function promptsFor(catalog: Catalog, query: string): Prompt[] {
  const q = query.toLowerCase();
  return (catalog.servers ?? [])
    .flatMap((s) => s.prompts.map((p) => ({ ...p, serverId: s.id, serverName: s.name })))
    .filter((p) => `${p.name} ${p.title ?? ""}`.toLowerCase().includes(q))
    .slice(0, 30);
}

/** The prompt's messages as text, with these arguments (an error's message when the server refuses). */
async function loadPrompt(prompt: Prompt, args: Record<string, string>): Promise<string> {
  const body = await fetchJson<{ messages?: { role: string; text: string }[] }>(`/api/mcp/servers/${encodeURIComponent(prompt.serverId)}/prompt`, {
    method: "POST",
    body: { name: prompt.name, arguments: args },
  }).catch((err: unknown) => {
    throw new Error(serverMessage(err) ?? "The prompt could not be loaded.");
  });
  if (!body?.messages) throw new Error("The prompt could not be loaded.");
  return body.messages.map((m) => m.text).join("\n\n");
}

function ArgumentsForm({ prompt, onDone, onBack }: { prompt: Prompt; onDone: (text: string) => void; onBack: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function run() {
    setBusy(true);
    setProblem(undefined);
    try {
      onDone(await loadPrompt(prompt, Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""))));
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form
      aria-label={`Arguments of ${prompt.title ?? prompt.name}`}
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <p className="font-medium">
        {prompt.title ?? prompt.name} <span className="text-xs font-normal text-subtle">· {prompt.serverName}</span>
      </p>
      {prompt.arguments.map((a, i) => (
        <label key={a.name} className="flex flex-col gap-0.5 text-xs">
          {a.name}
          {a.required ? " (required)" : ""}
          {a.description && <span className="text-subtle">{a.description}</span>}
          <Input
            size="sm"
            autoFocus={i === 0}
            required={a.required}
            value={values[a.name] ?? ""}
            onChange={(e) => setValues((o) => ({ ...o, [a.name]: e.target.value }))}
          />
        </label>
      ))}
      {problem && (
        <p role="alert" className="text-xs text-danger">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="xs" disabled={busy}>
          {busy && <Loader2 className="size-3 animate-spin" aria-hidden />} Insert prompt
        </Button>
        <Button size="xs" variant="ghost" onClick={onBack}>
          Back
        </Button>
      </div>
    </form>
  );
}

/**
 * The "/" combobox's state, for the message box: `inputProps` go on the box, `onKeyDown` runs first
 * in its key handler (true: the key was the list's), `popover` is rendered beside the composer.
 */
export function usePromptCombobox({
  catalog,
  query,
  anchor,
  onInsert,
  onClose,
}: {
  catalog: Catalog;
  query: string | undefined;
  anchor: React.RefObject<HTMLElement | null>;
  onInsert: (text: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [active, setActive] = useState(-1);
  const [chosen, setChosen] = useState<Prompt>();
  const [problem, setProblem] = useState<string>();
  const [lastQuery, setLastQuery] = useState(query);
  if (lastQuery !== query) {
    // A new filter (or the list closed): start again from no active option.
    setLastQuery(query);
    setActive(-1);
    setProblem(undefined);
    if (query === undefined) setChosen(undefined);
  }
  // No list when the team's servers offer no prompt at all: "/" is then just text.
  const none = !!catalog.servers && catalog.servers.every((s) => !s.prompts.length);
  const open = query !== undefined && !none;
  const shown = open ? promptsFor(catalog, query) : [];
  const optionId = (i: number) => `${id}-option-${i}`;
  const listId = `${id}-list`;
  const listShown = open && !chosen;

  function pick(p: Prompt) {
    if (p.arguments.length) return setChosen(p);
    loadPrompt(p, {}).then(onInsert, (err: Error) => setProblem(err.message));
  }
  const close = () => {
    setChosen(undefined);
    onClose();
  };

  function onKeyDown(e: React.KeyboardEvent): boolean {
    if (!listShown || e.nativeEvent.isComposing) return false;
    const n = shown.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (n) setActive((i) => (e.key === "ArrowDown" ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
    } else if (e.key === "Home" && n) setActive(0);
    else if (e.key === "End" && n) setActive(n - 1);
    else if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey) {
      // Picks the active prompt (the first when none is); never sends "/…" as a message.
      const p = shown[active >= 0 ? active : 0];
      if (p) pick(p);
      else if (e.key === "Tab") return false; // nothing to pick: Tab moves on
    } else if (e.key === "Escape") close();
    else return false;
    e.preventDefault();
    return true;
  }

  const inputProps = {
    "aria-autocomplete": "list" as const,
    "aria-controls": listShown ? listId : undefined,
    "aria-activedescendant": listShown && active >= 0 && active < shown.length ? optionId(active) : undefined,
  };

  // One object for the popover's whole life (a new one each render would move its anchor each time).
  const [virtualAnchor] = useState(() => ({ current: { getBoundingClientRect: () => anchor.current?.getBoundingClientRect() ?? new DOMRect() } }));
  const inComposer = (target: EventTarget | null) => target instanceof Node && !!anchor.current?.contains(target);

  const popover = (
    <Popover open={open} modal={false}>
      <PopoverAnchor virtualRef={virtualAnchor} />
      <PopoverContent
        side="top"
        aria-label="Prompts"
        className="flex max-h-[min(18rem,var(--radix-popover-content-available-height))] w-[min(48rem,calc(100vw-2rem))] flex-col gap-1"
        onOpenAutoFocus={(e) => e.preventDefault()} // the message box keeps the focus
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          anchor.current?.querySelector("textarea")?.focus();
        }}
        onEscapeKeyDown={(e) => {
          e.preventDefault();
          close();
          anchor.current?.querySelector("textarea")?.focus();
        }}
        onInteractOutside={(e) => {
          if (inComposer(e.target))
            e.preventDefault(); // typing on in the box keeps the list
          else close();
        }}
      >
        {chosen ? (
          <ArgumentsForm
            prompt={chosen}
            onDone={onInsert}
            onBack={() => {
              setChosen(undefined);
              anchor.current?.querySelector("textarea")?.focus();
            }}
          />
        ) : (
          <>
            {catalog.loading && (
              <p role="status" className="flex items-center gap-2 text-subtle">
                <Loader2 className="size-4 animate-spin" aria-hidden /> Loading prompts…
              </p>
            )}
            {catalog.error && (
              <p role="alert" className="text-danger">
                {catalog.error}
              </p>
            )}
            {problem && (
              <p role="alert" className="text-danger">
                {problem}
              </p>
            )}
            {catalog.servers && !shown.length && <p className="text-subtle">No prompt matches “/{query}”.</p>}
            <ul role="listbox" id={listId} aria-label="Prompts" className="flex flex-col gap-0.5">
              {shown.map((p, i) => (
                <li
                  key={`${p.serverId}:${p.name}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className="flex cursor-pointer items-start gap-2 rounded-md px-2 py-1 hover:bg-raised aria-selected:bg-raised aria-selected:outline-2 aria-selected:outline-accent"
                  onMouseDown={(e) => e.preventDefault()} // the box keeps the focus
                  onClick={() => {
                    setActive(i);
                    pick(p);
                  }}
                >
                  <SquareSlash className="mt-0.5 size-4 shrink-0" aria-hidden />
                  <span>
                    {p.title ?? p.name} <span className="text-xs text-subtle">· {p.serverName}</span>
                    {p.description && <span className="block text-xs text-subtle">{p.description}</span>}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </PopoverContent>
    </Popover>
  );
  /** `open`: the list is shown; the half-typed "/…" is not a message to send until it closes. */
  return { inputProps, onKeyDown, popover, open };
}
