// A person's own account: their name and password (through better-auth's update-user and
// change-password endpoints, so the strength rule of lib/auth/guards.ts holds), and their personal
// instructions, which every turn of theirs sends to the model as part of the system prompt.
import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { db } from "../db/client";
import { Invalid, NotFound } from "../errors";
import { withClientAddress } from "../security/client-address";
import { nameField, passwordField } from "../validation";
import { getAuth } from "./auth";

export const MAX_INSTRUCTIONS_CHARS = 4_000;

export const nameSchema = z.object({ name: nameField });
export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, "Enter your current password.").max(128, "At most 128 characters."),
  newPassword: passwordField,
});
export const instructionsSchema = z.object({
  instructions: z
    .string()
    .trim()
    .max(MAX_INSTRUCTIONS_CHARS, `At most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en")} characters.`),
});

export type Profile = { name: string; email: string; instructions: string };

export async function profileOf(userId: string): Promise<Profile> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true, instructions: true } });
  if (!user) throw NotFound();
  return { name: user.name, email: user.email, instructions: user.instructions ?? "" };
}

export async function renameSelf(name: string, headers: Headers): Promise<void> {
  const auth = await getAuth();
  await auth.api.updateUser({ body: { name }, headers: withClientAddress(headers) });
}

/**
 * Changes the caller's password after checking the current one. Every other session of theirs ends
 * (someone who knew the old password is signed out); this browser gets a new session.
 */
export async function changeOwnPassword(input: z.infer<typeof changePasswordSchema>, headers: Headers): Promise<void> {
  const auth = await getAuth();
  try {
    await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: withClientAddress(headers),
    });
  } catch (err) {
    if (!isAPIError(err) || err.statusCode >= 500) throw err;
    const { code, message } = (err.body ?? {}) as { code?: string; message?: string };
    if (code === "INVALID_PASSWORD") throw Invalid("Your current password is not right.", { currentPassword: "This is not your current password." });
    if (code === "PASSWORD_TOO_WEAK") throw Invalid("Choose a harder password.", { newPassword: message ?? "Choose a harder password." });
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") throw Invalid("Invalid password.", { newPassword: "Use 8 to 128 characters." });
    throw err;
  }
}

export async function setInstructions(userId: string, instructions: string): Promise<void> {
  const prisma = await db();
  await prisma.user.update({ where: { id: userId }, data: { instructions: instructions || null } });
}
