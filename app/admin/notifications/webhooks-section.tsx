// Admin → Notifications, the webhooks section: the team's webhooks with their last deliveries, and the
// actions that change them (webhook-actions.ts).
import type { TeamContext } from "@/lib/teams/team-context";
import { listWebhooks } from "@/lib/notifications/webhooks";
import { EVENT_LABELS } from "@/lib/notifications/webhook-format";
import { WebhooksPanel } from "@/components/admin/webhooks-panel";
import { createWebhookAction, deleteWebhookAction, setWebhookEventsAction, toggleWebhookAction } from "./webhook-actions";

export async function WebhooksSection({ ctx }: { ctx: TeamContext }) {
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" className="mb-3 text-lg font-semibold">
        Webhooks
      </h2>
      <WebhooksPanel
        webhooks={await listWebhooks(ctx)}
        eventLabels={EVENT_LABELS}
        create={createWebhookAction}
        setEvents={setWebhookEventsAction}
        toggle={toggleWebhookAction}
        remove={deleteWebhookAction}
      />
    </section>
  );
}
