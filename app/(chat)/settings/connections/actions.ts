"use server";
// A member's own connections to MCP servers: disconnect (their own only) and save their own key.
import { z } from "zod";
import { idFields } from "@/lib/actions";
import { Invalid } from "@/lib/errors";
import { disconnect, saveMemberKey } from "@/lib/identity/mcp-connect";
import { defineAction, formText, type FormActionOptions } from "@/app/_server/actions";

const keySchema = z
  .string()
  .trim()
  .min(1, "Paste your key or token.")
  .max(4000, "At most 4000 characters.")
  .refine((k) => !/[\r\n\0]/.test(k), "The key cannot contain line breaks.");

const CONNECTION = { role: "member", fields: idFields("serverId"), revalidate: ["/settings/connections"] } satisfies FormActionOptions<"member">;

export const disconnectAction = defineAction(CONNECTION, async (ctx, form) => {
  const { revoked } = await disconnect(ctx, formText(form, "serverId"));
  return { ok: true, message: revoked ? "Disconnected, and the access was revoked at the server." : "Disconnected." };
});

export const saveKeyAction = defineAction({ ...CONNECTION, secret: ["key"] }, async (ctx, form) => {
  const key = keySchema.safeParse(form.get("key") ?? "");
  if (!key.success) throw Invalid("Please correct the highlighted fields.", { key: key.error.issues[0].message });
  await saveMemberKey(ctx, formText(form, "serverId"), key.data);
  return { ok: true, message: "Saved. Your key is used for your tool calls to this server." };
});
