"use client";
// The single sign-on provider (OpenID Connect): name, issuer, client id, client secret (write-only:
// the form says whether one is set, an empty field keeps it), scopes, the groups claim, the token
// endpoint's server when it is not the issuer's (it receives the secret), the email domains trusted
// for joining existing accounts, and whether group rules manage every membership. "Test discovery"
// fetches the issuer's discovery document with the issuer in the form, saves nothing, and says what
// it found or what is wrong.
import { useActionState, useState } from "react";
import { Loader2, Search } from "lucide-react";
import type { FormAction } from "@/components/ui/action-form";
import { initialActionState, type ActionState } from "@/components/ui/form-state";
import type { SsoProviderView } from "@/lib/identity/sso-provider";
import { Button } from "../ui/button";
import { CheckboxField, Field, FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function SsoProviderForm({ provider, save, test }: { provider: SsoProviderView | null; save: FormAction; test: FormAction }) {
  // Controlled, so "Test discovery" (a form action: React resets uncontrolled fields after it) keeps
  // what was typed; a successful save empties the secret again (it is write-only).
  const [secret, setSecret] = useState("");
  const [state, saveAction] = useActionState(async (prev: ActionState, form: FormData) => {
    const result = await save(prev, form);
    if (result.ok) setSecret("");
    return result;
  }, initialActionState);
  const [testState, testAction, testing] = useActionState(test, initialActionState);
  const v = state.values;
  const [name, setName] = useState(v?.name ?? provider?.name ?? "");
  const [issuer, setIssuer] = useState(v?.issuer ?? provider?.issuer ?? "");
  const [clientId, setClientId] = useState(v?.clientId ?? provider?.clientId ?? "");
  const [scopes, setScopes] = useState(v?.scopes ?? provider?.scopes ?? "openid email profile");
  const [groupsClaim, setGroupsClaim] = useState(v?.groupsClaim ?? provider?.groupsClaim ?? "groups");
  const [tokenOrigin, setTokenOrigin] = useState(v?.tokenOrigin ?? provider?.tokenOrigin ?? "");
  const [trustedDomains, setTrustedDomains] = useState(v?.trustedDomains ?? provider?.trustedDomains ?? "");
  const [manageAll, setManageAll] = useState(v ? v.rulesManageAll === "on" : (provider?.rulesManageAll ?? false));
  const f = { ...(testState.fields ?? {}), ...(state.fields ?? {}) };
  return (
    <form action={saveAction} className="flex flex-col gap-4" aria-label="Single sign-on provider" noValidate>
      <FormMessage message={state.message} ok={state.ok} />
      <Field
        label="Name on the button"
        name="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={f.name}
        required
        maxLength={60}
        hint='People see "Sign in with <name>".'
      />
      <Field
        label="Issuer URL"
        name="issuer"
        type="url"
        value={issuer}
        onChange={(e) => setIssuer(e.target.value)}
        error={f.issuer}
        required
        maxLength={500}
        placeholder="https://login.example.com/realms/acme"
        hint="The provider's issuer; its discovery document is at <issuer>/.well-known/openid-configuration."
      />
      <Field
        label="Client id"
        name="clientId"
        value={clientId}
        onChange={(e) => setClientId(e.target.value)}
        error={f.clientId}
        required
        maxLength={300}
        autoComplete="off"
      />
      <div className="flex flex-col gap-1">
        <Field
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          error={f.clientSecret}
          placeholder={provider?.secretSet ? "Set (hidden); type to replace" : "Not set"}
          hint={
            provider?.secretSet
              ? "A secret is set. Leave empty to keep it; an issuer on another server needs it again."
              : "Stored encrypted; never shown again. Leave empty for a public client."
          }
        />
        {provider?.secretSet && <CheckboxField name="clearSecret" label="Remove the stored secret" />}
      </div>
      <Field
        label="Scopes"
        name="scopes"
        value={scopes}
        onChange={(e) => setScopes(e.target.value)}
        error={f.scopes}
        maxLength={500}
        hint="Separated by spaces; openid is always asked for. Add the scope that releases groups if your provider needs one."
      />
      <Field
        label="Groups claim"
        name="groupsClaim"
        value={groupsClaim}
        onChange={(e) => setGroupsClaim(e.target.value)}
        error={f.groupsClaim}
        maxLength={100}
        hint="The claim that lists a person's groups (a dotted path such as realm_access.roles works too)."
      />
      <Field
        label="Token endpoint's server"
        name="tokenOrigin"
        value={tokenOrigin}
        onChange={(e) => setTokenOrigin(e.target.value)}
        error={f.tokenOrigin}
        maxLength={300}
        placeholder="Only when it differs from the issuer's, e.g. https://oauth2.example.com"
        hint="The client secret is sent to the token endpoint. Parley sends it only to the issuer's own server, or to the server entered here."
      />
      <Field
        label="Trusted email domains"
        name="trustedDomains"
        value={trustedDomains}
        onChange={(e) => setTrustedDomains(e.target.value)}
        error={f.trustedDomains}
        maxLength={1000}
        placeholder="example.com"
        hint="Leave empty unless the provider alone decides addresses at these domains. A verified address there that is exactly an existing account's signs in to it; otherwise the account's owner links single sign-on from their profile after signing in with their password."
      />
      <CheckboxField
        name="rulesManageAll"
        label="Group rules also change and remove memberships made by invites and admins"
        checked={manageAll}
        onChange={(e) => setManageAll(e.target.checked)}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pendingText="Saving…">{provider ? "Save single sign-on" : "Turn on single sign-on"}</SubmitButton>
        <Button type="submit" variant="secondary" formAction={testAction} disabled={testing} aria-busy={testing || undefined}>
          {testing ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <Search className="size-4" aria-hidden />}
          Test discovery
        </Button>
      </div>
      <div aria-live="polite" data-testid="discovery-result">
        <FormMessage
          message={!testing && testState.message ? `${testState.ok ? "Discovery works. " : "Discovery failed: "}${testState.message}` : undefined}
          ok={testState.ok}
        />
      </div>
    </form>
  );
}
