// What a failed single sign-on means to the person: better-auth sends them back to the sign-in page
// (or the profile, for a failed link) with `?error=<code>`; this turns the code into a sentence
// (unknown codes get a general one).
const MESSAGES: Record<string, string> = {
  state_mismatch: "This sign-in link does not belong to this browser's sign-in, or it was used already. Start again.",
  state_not_found: "This sign-in response does not belong to a sign-in started here, or it was used already. Start again.",
  please_restart_the_process: "This sign-in response was used already or has expired. Start again.",
  invalid_code: "The sign-in provider did not accept the sign-in (the code was refused). Start again.",
  access_denied: "The sign-in was cancelled at the provider.",
  provider_unavailable: "The sign-in provider cannot be reached right now. Try again later or ask an admin.",
  oauth_provider_not_found: "Single sign-on is not set up.",
  issuer_mismatch: "The response came from another issuer than the configured one.",
  issuer_missing: "The sign-in provider's response did not name its issuer.",
  unable_to_get_user_info: "Your identity could not be verified with the sign-in provider.",
  email_not_found: "The sign-in provider did not share your email address.",
  email_not_verified: "The sign-in provider has not verified your email address.",
  // An existing account is joined only after its owner signs in with the password (lib/identity/sso-linking.ts).
  link_required: "An account with this email exists: sign in with your password to link single sign-on.",
  account_not_linked: "An account with this email exists: sign in with your password to link single sign-on.",
  unable_to_link_account: "This sign-in could not be linked to an account. Start again, or ask an admin.",
  account_already_linked_to_different_user: "This single sign-on identity is linked to another Parley account already.",
  email_does_not_match: "The email at the sign-in provider is not this account's.",
  signup_disabled: "New accounts cannot be made through single sign-on.",
};

export function ssoErrorMessage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return MESSAGES[code] ?? "Single sign-on failed. Start again, or ask an admin if it keeps failing.";
}
