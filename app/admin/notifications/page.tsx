// Admin → Notifications: how people outside the app hear from Parley. Email: whether it is on, through
// which server, and "Send test email". Each channel has a section of its own below.
import { adminPage } from "@/app/_server/page-guards";
import { smtpStatus } from "@/lib/email/mailer";
import { EmailStatus } from "@/components/admin/email-status";
import { sendTestEmailAction } from "./email-actions";
import { WebhooksSection } from "./webhooks-section";

export const metadata = { title: "Notifications" };

export default async function NotificationsPage() {
  const ctx = await adminPage("/admin/notifications");
  return (
    <div className="flex flex-col gap-10">
      <h1 className="sr-only">Notifications</h1>
      <section aria-labelledby="email-heading">
        <h2 id="email-heading" className="mb-3 text-lg font-semibold">
          Email
        </h2>
        <EmailStatus status={smtpStatus()} to={ctx.user.email} sendTest={sendTestEmailAction} />
      </section>
      <WebhooksSection ctx={ctx} />
    </div>
  );
}
