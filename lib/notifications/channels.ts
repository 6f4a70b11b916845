// Every way out of the app a team's events take: the dispatcher (dispatcher.ts) hands each team's
// committed events, in order, to each channel here. A channel adds itself with one line.
import type { NotificationChannel } from "./team-events";
import { webhookChannel } from "./webhook-channel";
import { approvalEmailChannel } from "./approval-email";

export const notificationChannels: NotificationChannel[] = [webhookChannel, approvalEmailChannel];
