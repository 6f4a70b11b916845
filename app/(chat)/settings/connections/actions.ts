"use server";
// A member's own connections to MCP servers: disconnect (their own only) and save their own key.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { Invalid } from "@/lib/errors";
import { disconnect, saveMemberKey } from "@/lib/identity/mcp-connect";
import { requireTeam } from "@/lib/teams/context";

const keySchema = z
  .string()
  .trim()
  .min(1, "Paste your key or token.")
  .max(4000, "At most 4000 characters.")
  .refine((k) => !/[\r\n\0]/.test(k), "The key cannot contain line breaks.");

export async function disconnectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireTeam();
    const { revoked } = await disconnect(ctx, String(form.get("serverId") ?? ""));
    revalidatePath("/settings/connections");
    return { ok: true, message: revoked ? "Disconnected, and the access was revoked at the server." : "Disconnected." };
  });
}

export async function saveKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("serverId"));
  if (refused) return refused;
  return runAction(
    async () => {
      const ctx = await requireTeam();
      const key = keySchema.safeParse(form.get("key") ?? "");
      if (!key.success) throw Invalid("Please correct the highlighted fields.", { key: key.error.issues[0].message });
      await saveMemberKey(ctx, String(form.get("serverId") ?? ""), key.data);
      revalidatePath("/settings/connections");
      return { ok: true, message: "Saved. Your key is used for your tool calls to this server." };
    },
    form,
    ["key"],
  );
}
