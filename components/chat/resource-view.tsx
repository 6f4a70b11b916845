"use client";
// MCP resources in messages: the chips of resources attached to a question (opened, they show the text
// or image the model received), and resource links in a tool's result that are not web addresses,
// opened by reading them from their server (POST /api/mcp/servers/[id]/resource).
import { useState } from "react";
import { FileText, Loader2 } from "lucide-react";
import type { ResourceData } from "@/lib/messages/message-types";
import type { ParleyPart } from "@/lib/messages/message-types";
import { Button } from "../ui/button";
import { fetchJson, serverMessage } from "../shared/fetch-json";

const SHOWN = 5_000;
const UNREADABLE = "The resource could not be read.";

function Content({ r }: { r: ResourceData }) {
  if (r.image) {
    // eslint-disable-next-line @next/next/no-img-element -- an attached image, a data URL
    return <img src={`data:${r.mimeType ?? "image/png"};base64,${r.image}`} alt={`Resource ${r.uri}`} className="max-h-60 max-w-full rounded" />;
  }
  if (r.text === undefined) return <p className="text-xs text-subtle">Sent with the message.</p>;
  return (
    <>
      <pre tabIndex={0} role="region" aria-label={`Resource ${r.uri}`} className="max-h-60 overflow-auto rounded bg-page p-2 text-xs whitespace-pre-wrap">
        {r.text.slice(0, SHOWN)}
      </pre>
      {(r.text.length > SHOWN || r.truncatedFrom) && (
        <p className="text-xs text-subtle">
          {r.truncatedFrom
            ? `Cut: the resource has ${r.truncatedFrom.toLocaleString()} characters; the model received the first ${r.text.length.toLocaleString()}.`
            : `The first ${SHOWN.toLocaleString()} characters are shown.`}
        </p>
      )}
    </>
  );
}

/** The resources attached to a question, as chips that open to what was sent. */
export function AttachedResources({ parts }: { parts: ParleyPart[] }) {
  const resources = parts.flatMap((p) => (p.type === "data-resource" ? [p.data] : []));
  if (!resources.length) return null;
  return (
    <ul className="mt-2 flex flex-col items-end gap-1 whitespace-normal" aria-label="Attached resources">
      {resources.map((r, i) => (
        <li key={i} className="max-w-full">
          <details className="rounded-lg border border-line-strong bg-panel px-2 py-1 text-xs" data-attachment={r.uri}>
            <summary className="flex cursor-pointer items-center gap-1">
              <FileText className="size-3.5" aria-hidden /> {r.serverName} · <span className="font-mono">{r.uri}</span>
            </summary>
            <div className="mt-1">
              <Content r={r} />
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** A non-web resource link of a tool result, opened by reading it from the tool's server. */
export function OpenResource({ serverId, uri, label }: { serverId?: string; uri: string; label: string }) {
  const [state, setState] = useState<{ busy?: boolean; resource?: ResourceData; error?: string }>({});
  if (!serverId) return null;
  if (state.resource) return <Content r={state.resource} />;
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="xs"
        variant="secondary"
        disabled={state.busy}
        aria-label={`Open ${label}`}
        onClick={async () => {
          setState({ busy: true });
          try {
            const body = await fetchJson<{ resource?: ResourceData }>(`/api/mcp/servers/${encodeURIComponent(serverId)}/resource`, {
              method: "POST",
              body: { uri },
            });
            setState(body?.resource ? { resource: body.resource } : { error: UNREADABLE });
          } catch (err) {
            setState({ error: serverMessage(err) ?? UNREADABLE });
          }
        }}
      >
        {state.busy && <Loader2 className="size-3 animate-spin" aria-hidden />} Open
      </Button>
      {state.error && (
        <span role="alert" className="text-xs text-danger">
          {state.error}
        </span>
      )}
    </span>
  );
}
