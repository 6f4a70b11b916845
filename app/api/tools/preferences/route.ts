// GET: the caller's always-allowed tools. POST {toolId, alwaysAllow}: set or revoke one.
import { handle } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { listAlwaysAllowed, preferenceSchema, setAlwaysAllow } from "@/lib/tools/preferences";

export const GET = handle(async () => Response.json({ tools: await listAlwaysAllowed(await requireTeam()) }));

export const POST = handle(async (req: Request) => {
  const ctx = await requireTeam();
  const { toolId, alwaysAllow } = await readJson(req, preferenceSchema);
  await setAlwaysAllow(ctx, toolId, alwaysAllow);
  return Response.json({ ok: true });
});
