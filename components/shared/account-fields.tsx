"use client";
// The email field of every account form, and the name, email and password fields shared by the setup and invite sign-up forms, and the new-password
// field of the profile and reset-link forms. A refused form keeps
// everything typed: the server echoes the other fields back (never a password), and the password
// stays in this page's own state, so the person corrects one field instead of typing all again.
import { useState } from "react";
import type { ActionState } from "@/lib/actions";
import { Field } from "../ui/field";

/** The email field of the account forms (sign-in, sign-up, forgot password), keeping what was typed when refused. */
export function EmailField({ state }: { state: ActionState }) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required
      maxLength={254}
      defaultValue={state.values?.email}
      error={state.fields?.email}
    />
  );
}

export function AccountFields({ state }: { state: ActionState }) {
  const [password, setPassword] = useState("");
  return (
    <>
      <Field label="Your name" name="name" autoComplete="name" required maxLength={100} defaultValue={state.values?.name} error={state.fields?.name} />
      <EmailField state={state} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="At least 8 characters."
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={state.fields?.password}
      />
    </>
  );
}

/** A new password (profile change, reset link): the rule in the hint, the server's reason as the error. */
export function NewPasswordField({ error }: { error?: string }) {
  return (
    <Field
      label="New password"
      name="newPassword"
      type="password"
      autoComplete="new-password"
      required
      minLength={8}
      maxLength={128}
      hint="At least 8 characters, not easy to guess: a few unrelated words work well."
      error={error}
    />
  );
}
