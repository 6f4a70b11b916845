"use client";
// Admin → Notifications, webhooks: add one (name, URL, format, events; its signing secret is shown once
// with a copy button), and for each: its events, off/on, delete, and its last deliveries with their
// status, tries and last answer (Refresh reads them again).
import { useActionState } from "react";
import { useRouter } from "next/navigation";
import type { WebhookView } from "@/lib/notifications/webhooks";
import type { TeamEventKind } from "@/lib/notifications/team-events";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { CopyField } from "../ui/copy-field";
import { CheckboxField, Field, FormField, FormMessage } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { SubmitButton } from "../ui/submit-button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";

type Labels = Record<TeamEventKind, string>;
type Props = { webhooks: WebhookView[]; eventLabels: Labels; create: FormAction; setEvents: FormAction; toggle: FormAction; remove: FormAction };

const DEFAULT_EVENTS: TeamEventKind[] = ["approval.requested", "approval.decided"];
const FORMATS = { parley: "Parley JSON", slack: "Slack-compatible" };

function EventChoices({ labels, chosen }: { labels: Labels; chosen: readonly string[] }) {
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-sm font-medium">Events</legend>
      {(Object.keys(labels) as TeamEventKind[]).map((kind) => (
        <CheckboxField key={kind} name="events" value={kind} defaultChecked={chosen.includes(kind)} label={`${labels[kind]} (${kind})`} />
      ))}
    </fieldset>
  );
}

function statusText(d: WebhookView["deliveries"][number]): string {
  if (d.status === "delivered") return "Delivered";
  if (d.status === "failed") return "Failed (given up)";
  return d.attempts ? `Retrying at ${new Date(d.nextAttemptAt!).toLocaleTimeString()}` : "Waiting";
}

function Deliveries({ hook }: { hook: WebhookView }) {
  if (!hook.deliveries.length) return <p className="text-sm text-subtle">No deliveries yet.</p>;
  return (
    <Table label={`Last deliveries of ${hook.name}`}>
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Tries</TableHead>
          <TableHead>Last answer</TableHead>
          <TableHead>When</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {hook.deliveries.map((d) => (
          <TableRow key={d.id}>
            <TableCell className="font-mono text-xs">{d.kind}</TableCell>
            <TableCell className={d.status === "delivered" ? "text-success" : d.status === "failed" ? "text-error" : undefined}>{statusText(d)}</TableCell>
            <TableCell>{d.attempts}</TableCell>
            <TableCell>{d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : "—")}</TableCell>
            <TableCell>{new Date(d.deliveredAt ?? d.createdAt).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Webhook({ hook, labels, setEvents, toggle, remove }: { hook: WebhookView; labels: Labels } & Pick<Props, "setEvents" | "toggle" | "remove">) {
  const [eventsState, eventsAction] = useActionState(setEvents, initialActionState);
  const [changeState, toggleAction] = useActionState(toggle, initialActionState);
  const [removeState, removeAction] = useActionState(remove, initialActionState);
  const refused = [changeState, removeState].find((s) => !s.ok && s.message);
  return (
    <li className="flex flex-col gap-4 rounded-lg border border-line p-4" aria-label={`Webhook ${hook.name}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold">
            {hook.name} {!hook.enabled && <span className="text-sm font-normal text-subtle">(off)</span>}
          </h3>
          <p className="truncate font-mono text-xs text-subtle">{hook.url}</p>
          <p className="text-xs text-subtle">{FORMATS[hook.format]}</p>
        </div>
        <div className="flex gap-2">
          <form action={toggleAction}>
            <input type="hidden" name="webhookId" value={hook.id} />
            <input type="hidden" name="enabled" value={String(!hook.enabled)} />
            <Button type="submit" variant="secondary" size="sm">
              {hook.enabled ? "Turn off" : "Turn on"}
            </Button>
          </form>
          <form action={removeAction}>
            <input type="hidden" name="webhookId" value={hook.id} />
            <Button type="submit" variant="danger" size="sm">
              Delete
            </Button>
          </form>
        </div>
      </div>
      <FormMessage message={refused?.message} />
      <form action={eventsAction} className="flex flex-col gap-2" aria-label={`Events of ${hook.name}`}>
        <input type="hidden" name="webhookId" value={hook.id} />
        <EventChoices labels={labels} chosen={hook.events} />
        <div>
          <SubmitButton size="sm" variant="secondary" pendingText="Saving…">
            Save events
          </SubmitButton>
        </div>
        <FormMessage message={eventsState.message} ok={eventsState.ok} />
      </form>
      <div>
        <h4 className="mb-2 text-sm font-semibold">Last deliveries</h4>
        <Deliveries hook={hook} />
      </div>
    </li>
  );
}

export function WebhooksPanel({ webhooks, eventLabels, create, setEvents, toggle, remove }: Props) {
  const router = useRouter();
  const [state, createAction] = useActionState(create, initialActionState);
  const secret = state.ok ? state.data?.secret : undefined;
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-subtle">
        Parley POSTs each event the webhook asks for to its URL, signed with its secret (header Parley-Signature; see the API documentation), and retries with
        growing delays when the receiver fails. Slack-compatible webhooks get a one-line message.
      </p>
      <form action={createAction} className="flex flex-col gap-3" aria-label="New webhook">
        <div className="flex flex-wrap items-end gap-3">
          <Field
            label="Name"
            name="name"
            maxLength={100}
            className="w-48"
            defaultValue={state.ok ? undefined : state.values?.name}
            error={state.fields?.name}
          />
          <Field
            label="URL"
            name="url"
            type="url"
            maxLength={2000}
            className="min-w-72 flex-1"
            placeholder="https://hooks.example.com/parley"
            defaultValue={state.ok ? undefined : state.values?.url}
            error={state.fields?.url}
          />
          <FormField label="Format" error={state.fields?.format}>
            {(control) => (
              <OptionSelect
                {...control}
                name="format"
                defaultValue="parley"
                className="w-48"
                options={Object.entries(FORMATS).map(([value, label]) => ({ value, label }))}
              />
            )}
          </FormField>
        </div>
        <EventChoices labels={eventLabels} chosen={DEFAULT_EVENTS} />
        {state.fields?.events && <p className="text-sm text-error">{state.fields.events}</p>}
        <div>
          <SubmitButton pendingText="Adding…">Add webhook</SubmitButton>
        </div>
      </form>
      <FormMessage message={state.message} ok={state.ok} />
      {secret && <CopyField label="Signing secret" url={secret} hint="Your receiver checks each delivery's signature with it." />}
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold">Webhooks of this team</h3>
        <Button variant="secondary" size="sm" onClick={() => router.refresh()}>
          Refresh
        </Button>
      </div>
      {webhooks.length === 0 ? (
        <p className="text-sm text-subtle">No webhooks yet.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {webhooks.map((h) => (
            <Webhook key={h.id} hook={h} labels={eventLabels} setEvents={setEvents} toggle={toggle} remove={remove} />
          ))}
        </ul>
      )}
    </div>
  );
}
