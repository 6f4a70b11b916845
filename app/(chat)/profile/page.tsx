import { InstructionsForm, NameForm, PasswordForm, PersonalModelForm } from "@/components/account/profile-forms";
import { SsoLink } from "@/components/account/sso-link";
import { FormMessage } from "@/components/ui/field";
import { MAX_INSTRUCTIONS_CHARS, profileOf } from "@/lib/auth/profile";
import { ssoErrorMessage } from "@/lib/identity/sign-in-errors";
import { ssoLinkOf } from "@/lib/identity/sign-in-methods";
import { pickerModels } from "@/lib/providers/models";
import { teamPage } from "@/app/_server/page-guards";
import { personalModelOf } from "@/lib/teams/personal-model";
import { NotificationSettings } from "@/components/account/notification-settings";
import { emailEnabled } from "@/lib/email/mailer";
import { notificationChoices } from "@/lib/notifications/preferences";
import { changePasswordAction, instructionsAction, linkSsoAction, notificationsAction, personalModelAction, renameAction, unlinkSsoAction } from "./actions";

export const metadata = { title: "Profile" };

function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-10">
      <h2 id={id} className="mb-1 text-base font-semibold">
        {title}
      </h2>
      {intro && <p className="mb-3 text-sm text-subtle">{intro}</p>}
      {children}
    </section>
  );
}

export default async function ProfilePage({ searchParams }: { searchParams: Promise<{ sso?: string; error?: string }> }) {
  const ctx = await teamPage("/profile");
  const [profile, personalModel, models, sso, notifications] = await Promise.all([
    profileOf(ctx.user.id),
    personalModelOf(ctx),
    pickerModels(ctx.team.id),
    ssoLinkOf(ctx.user.id),
    notificationChoices(ctx.user.id),
  ]);
  // Where "Link single sign-on" comes back to: ?sso=linked, or ?error=<code> when the link failed.
  const { sso: linkedNow, error } = await searchParams;
  const linkError = ssoErrorMessage(typeof error === "string" ? error : undefined);
  const teamDefault = models.groups.flatMap((g) => g.models).find((m) => m.id === models.defaultModelId);
  return (
    <div className="mx-auto max-w-2xl px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-1 text-lg font-semibold">Your profile</h1>
      <p className="mb-8 text-sm text-subtle">Signed in as {profile.email}.</p>
      <Section id="profile-name" title="Name" intro="How you appear to your teams.">
        <NameForm action={renameAction} name={profile.name} />
      </Section>
      <Section id="profile-password" title="Password" intro="Changing it signs you out everywhere else.">
        <PasswordForm action={changePasswordAction} />
      </Section>
      {(sso.name || sso.linked) && (
        <Section id="profile-sso" title="Single sign-on" intro={sso.name ? `Sign in with ${sso.name} instead of your password.` : undefined}>
          {linkError && <FormMessage className="mb-3" message={`Linking failed: ${linkError}`} />}
          {linkedNow === "linked" && sso.linked && (
            <FormMessage ok className="mb-3" message={`Single sign-on linked. You can now sign in with ${sso.name ?? "it"}.`} />
          )}
          <SsoLink name={sso.name ?? "single sign-on"} linked={sso.linked} hasPassword={sso.hasPassword} link={linkSsoAction} unlink={unlinkSsoAction} />
        </Section>
      )}
      <Section
        id="profile-model"
        title="Default model"
        intro={`The model your new chats in ${ctx.team.name} start with. You can still pick another in any chat.`}
      >
        <PersonalModelForm action={personalModelAction} groups={models.groups} value={personalModel ?? ""} teamDefault={teamDefault?.name} />
      </Section>
      <Section
        id="profile-instructions"
        title="Instructions"
        intro="Sent to the model with every message you write, in every team: how you like answers, what it should know about you."
      >
        <InstructionsForm action={instructionsAction} instructions={profile.instructions} max={MAX_INSTRUCTIONS_CHARS} />
      </Section>
      <Section id="profile-notifications" title="Notifications" intro="What Parley emails you about, in every team.">
        <NotificationSettings
          action={notificationsAction}
          choices={notifications}
          isAdmin={ctx.teams.some((t) => t.role === "admin")}
          emailOn={emailEnabled()}
        />
      </Section>
    </div>
  );
}
