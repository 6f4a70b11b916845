"use client";
// Admin → Notifications, email: whether Parley sends email and through which server (never its
// password), and "Send test email" to the admin's own address. Off: what the operator sets to turn it on.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import type { SmtpStatus } from "@/lib/email/mailer";
import { SubmitButton } from "../ui/submit-button";

export function EmailStatus({ status, to, sendTest }: { status: SmtpStatus; to: string; sendTest: FormAction }) {
  if (!status.enabled) {
    return (
      <div className="flex flex-col gap-2 text-sm" data-testid="email-status">
        <p>
          <span className="font-medium">Email is off.</span> Invites and password resets are links you copy and hand over, and nobody is notified by email.
        </p>
        <p className="text-subtle">
          The operator turns it on by setting <code>SMTP_URL</code> (or <code>SMTP_HOST</code> with <code>SMTP_PORT</code>, <code>SMTP_USER</code>,{" "}
          <code>SMTP_PASSWORD</code>) and <code>SMTP_FROM</code>, then restarting Parley.
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="email-status">
      <p>
        <span className="font-medium">Email is on.</span> Parley sends as {status.from} through {status.host}:{status.port} (
        {status.secure ? "TLS" : "STARTTLS when the server offers it"}
        {status.user ? ", signed in" : ", without signing in"}).
      </p>
      <ActionForm action={sendTest} label="Send test email" showSuccess className="flex flex-col items-start gap-2">
        {() => (
          <>
            <p className="text-subtle">Sends a short message to your own address, {to}.</p>
            <SubmitButton variant="secondary" pendingText="Sending…">
              Send test email
            </SubmitButton>
          </>
        )}
      </ActionForm>
    </div>
  );
}
