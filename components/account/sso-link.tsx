"use client";
// The profile's single sign-on section: "Link single sign-on" (to the provider's login page; the
// identity signed in there joins this account) or, once linked, "Unlink single sign-on" (only for an
// account that also has a password, so nobody is left without a way in).
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { SubmitButton } from "../ui/submit-button";

type Props = { name: string; linked: boolean; hasPassword: boolean; link: FormAction; unlink: FormAction };

export function SsoLink({ name, linked, hasPassword, link, unlink }: Props) {
  if (!linked) {
    return (
      <ActionForm action={link} label="Link single sign-on">
        {() => (
          <>
            <p className="text-sm">Not linked. After linking you can sign in with {name}; you sign in there once to link.</p>
            <SubmitButton className="self-start" variant="secondary" pendingText={`Going to ${name}…`}>
              Link single sign-on
            </SubmitButton>
          </>
        )}
      </ActionForm>
    );
  }
  return (
    <ActionForm action={unlink} label="Unlink single sign-on" showSuccess>
      {() => (
        <>
          <p className="text-sm">Linked: you can sign in with {name}.</p>
          {hasPassword ? (
            <SubmitButton className="self-start" variant="secondary" pendingText="Unlinking…">
              Unlink single sign-on
            </SubmitButton>
          ) : (
            <p className="text-sm text-subtle">It is your only way to sign in, so it cannot be unlinked here.</p>
          )}
        </>
      )}
    </ActionForm>
  );
}
