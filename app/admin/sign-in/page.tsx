import { headers } from "next/headers";
import { forbidden } from "next/navigation";
import { publicUrl } from "@/lib/config";
import { listGroupRules, ruleTeamChoices } from "@/lib/identity/group-rules";
import { passwordSignInAllowed } from "@/lib/identity/sign-in-methods";
import { SSO_CALLBACK_PATH, ssoProviderView } from "@/lib/identity/sso-provider";
import { isInstanceAdmin } from "@/lib/teams/instance-admin";
import { adminPage } from "@/app/_server/page-guards";
import { CopyField } from "@/components/ui/copy-field";
import { SsoProviderForm } from "@/components/admin/sso-provider-form";
import { GroupRules, PasswordSignInSwitch, RemoveSsoButton } from "@/components/admin/sso-rules";
import {
  addGroupRuleAction,
  removeGroupRuleAction,
  removeSsoProviderAction,
  saveSsoProviderAction,
  setPasswordSignInAction,
  testDiscoveryAction,
} from "./actions";

export const metadata = { title: "Sign-in" };

async function origin(): Promise<string> {
  const configured = publicUrl();
  if (configured) return configured;
  const h = await headers();
  return `${h.get("x-forwarded-proto") === "https" ? "https" : "http"}://${h.get("host") ?? "localhost:3000"}`;
}

export default async function SignInSettingsPage() {
  const ctx = await adminPage("/admin/sign-in");
  if (!(await isInstanceAdmin(ctx.user.id))) forbidden();
  const [provider, rules, password, teams, base] = await Promise.all([
    ssoProviderView(),
    listGroupRules(),
    passwordSignInAllowed(),
    ruleTeamChoices(),
    origin(),
  ]);
  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="sso-heading" className="flex max-w-xl flex-col gap-4">
        <h1 id="sso-heading" className="text-lg font-semibold">
          Single sign-on (OpenID Connect)
        </h1>
        <p className="text-sm text-soft">
          Register Parley at your identity provider as a web application with this redirect URI, then enter what the provider gives you.
        </p>
        <CopyField
          label="Redirect (callback) URI"
          url={`${base}${SSO_CALLBACK_PATH}`}
          hint="Behind a proxy, set PARLEY_URL so this shows the address people use."
        />
        <SsoProviderForm provider={provider} save={saveSsoProviderAction} test={testDiscoveryAction} />
        <RemoveSsoButton action={removeSsoProviderAction} configured={Boolean(provider)} />
      </section>
      <section aria-labelledby="rules-heading" className="flex flex-col gap-3">
        <h2 id="rules-heading" className="text-lg font-semibold">
          Group rules
        </h2>
        <p className="text-sm text-soft">
          At every single sign-on, a person&apos;s membership in each team named below follows their groups: added, changed or removed. Only memberships the
          rules granted change, unless the provider&apos;s settings above let the rules manage every membership. A team&apos;s last admin is never removed this
          way. Teams without a rule are left alone.
        </p>
        <GroupRules rules={rules} teams={teams} add={addGroupRuleAction} remove={removeGroupRuleAction} />
      </section>
      <section aria-labelledby="password-heading" className="flex flex-col gap-3">
        <h2 id="password-heading" className="text-lg font-semibold">
          Email and password
        </h2>
        <p className="text-sm text-soft">
          It can be turned off once single sign-on is set up and you have signed in with it yourself, so nobody is locked out. Removing single sign-on turns it
          back on.
        </p>
        <PasswordSignInSwitch on={password} action={setPasswordSignInAction} />
      </section>
    </div>
  );
}
