"use client";
// "Attach" in the composer: the team's MCP servers and their resources (and resource templates, whose
// arguments the member fills in); a chosen resource becomes a chip on the message, read by the server
// when the message is sent and given to the model as context. The popover opens where it fits: above
// the whole composer (below it there is only a strip of the window), and Radix moves it if it must.
// Named for what it adds ("a server resource"), beside "Add files" (uploads from this device).
import { useMemo, useRef, useState } from "react";
import { FileText, Library, Loader2, X } from "lucide-react";
import type { CatalogServer } from "@/lib/mcp-chat/mcp-catalog";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Popover, PopoverAnchor, PopoverContent, PopoverTrigger } from "../ui/popover";
import { Tooltip } from "../ui/tooltip";
import type { Catalog } from "./use-mcp-catalog";

export type Attached = { serverId: string; serverName: string; uri: string; label: string };

const templateVars = (t: string) => [...t.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
const expand = (t: string, values: Record<string, string>) => t.replace(/\{([^}]+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? ""));

function TemplateForm({
  server,
  template,
  onAttach,
}: {
  server: CatalogServer;
  template: CatalogServer["templates"][number];
  onAttach: (a: Attached) => void;
}) {
  const vars = templateVars(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const label = template.title ?? template.name;
  return (
    <form
      className="flex flex-col gap-1 rounded-md border border-line p-2"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        const uri = expand(template.uriTemplate, values);
        onAttach({ serverId: server.id, serverName: server.name, uri, label: `${label} (${vars.map((v) => values[v]).join(", ")})` });
      }}
    >
      <p className="text-xs font-medium">{label}</p>
      {vars.map((v) => (
        <label key={v} className="flex flex-col gap-0.5 text-xs">
          {v}
          <Input size="sm" required value={values[v] ?? ""} onChange={(e) => setValues((o) => ({ ...o, [v]: e.target.value }))} />
        </label>
      ))}
      <Button type="submit" size="xs" variant="secondary" className="self-start">
        Attach {label}
      </Button>
    </form>
  );
}

export function AttachMenu({ catalog, disabled, onAttach }: { catalog: Catalog; disabled?: boolean; onAttach: (a: Attached) => void }) {
  const [open, setOpen] = useState(false);
  const [serverId, setServerId] = useState<string>();
  const servers = (catalog.servers ?? []).filter((s) => s.resources.length || s.templates.length || s.error);
  const server = servers.find((s) => s.id === serverId);
  const trigger = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);
  /** Opens a server's resources (or goes back to all servers) with focus on the first button there, not lost with the one pressed. */
  const show = (id: string | undefined) => {
    setServerId(id);
    requestAnimationFrame(() => content.current?.querySelector<HTMLElement>("button")?.focus());
  };
  // The whole composer (the trigger's form), so the popover opens above the message box.
  const anchor = useMemo(
    () => ({ current: { getBoundingClientRect: () => (trigger.current?.closest("form") ?? trigger.current)?.getBoundingClientRect() ?? new DOMRect() } }),
    [],
  );
  const attach = (a: Attached) => {
    onAttach(a);
    setOpen(false);
    setServerId(undefined);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) catalog.load();
      }}
    >
      <PopoverAnchor virtualRef={anchor} />
      <Tooltip content="A document one of your team's MCP servers offers (Add files is for files from this device)">
        <PopoverTrigger asChild>
          <Button ref={trigger} variant="ghost" size="sm" disabled={disabled} className="gap-1" aria-label="Attach a server resource">
            <Library className="size-4" aria-hidden /> Server resource
          </Button>
        </PopoverTrigger>
      </Tooltip>
      <PopoverContent ref={content} side="top" aria-label="Attach a resource" className="flex w-[min(20rem,calc(100vw-1rem))] flex-col gap-1">
        {catalog.loading && (
          <p className="flex items-center gap-2 text-subtle">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Loading resources…
          </p>
        )}
        {catalog.error && (
          <p role="alert" className="text-danger">
            {catalog.error}
          </p>
        )}
        {catalog.servers && !servers.length && <p className="text-subtle">No server of your team offers resources.</p>}
        {!server &&
          servers.map((s) => (
            <Button key={s.id} variant="ghost" size="sm" className="justify-start" onClick={() => show(s.id)}>
              {s.name}
              {s.error ? (
                <span className="text-xs text-danger"> (unavailable)</span>
              ) : (
                <span className="text-xs text-subtle"> {s.resources.length + s.templates.length}</span>
              )}
            </Button>
          ))}
        {server && (
          <>
            <Button variant="ghost" size="xs" className="self-start" onClick={() => show(undefined)}>
              ← All servers
            </Button>
            <p className="px-1 text-xs font-medium text-subtle">{server.name}</p>
            {server.error && <p className="text-xs text-danger">{server.error}</p>}
            {server.resources.map((r) => (
              <Button
                key={r.uri}
                variant="ghost"
                size="sm"
                className="h-auto justify-start py-1 text-left whitespace-normal"
                onClick={() => attach({ serverId: server.id, serverName: server.name, uri: r.uri, label: r.title ?? r.name })}
              >
                <FileText className="size-4 shrink-0" aria-hidden />
                <span>
                  {r.title ?? r.name}
                  {r.description && <span className="block text-xs text-subtle">{r.description}</span>}
                </span>
              </Button>
            ))}
            {server.templates.map((t) => (
              <TemplateForm key={t.uriTemplate} server={server} template={t} onAttach={attach} />
            ))}
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}

/** The attached resources as chips, each removable before sending. */
export function AttachedChips({ attached, onRemove }: { attached: Attached[]; onRemove: (i: number) => void }) {
  if (!attached.length) return null;
  return (
    <ul className="mx-auto mb-2 flex max-w-3xl flex-wrap gap-2" aria-label="Attached resources">
      {attached.map((a, i) => (
        <li
          key={`${a.serverId}:${a.uri}`}
          className="flex items-center gap-1 rounded-full border border-line-strong bg-panel py-0.5 pr-1 pl-2 text-xs"
          title={a.uri}
        >
          <FileText className="size-3.5" aria-hidden />
          {a.serverName} · {a.label}
          <button
            type="button"
            aria-label={`Remove ${a.label}`}
            onClick={() => onRemove(i)}
            className="rounded-full p-0.5 hover:bg-panel-hover focus-visible:outline-2"
          >
            <X className="size-3" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
