// POST: a tool call the MCP Apps view of a tool call asks for ({ call, name, arguments, approved? }); runs
// on the server under the member's approval policy (lib/mcp-chat/mcp-app-calls.ts) and answers { result };
// 409 ApprovalNeeded when the member has to say yes first (then sent again with `approved: true`).
import { z } from "zod";
import { appToolCall } from "@/lib/mcp-chat/mcp-app-calls";
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

const callSchema = z
  .object({
    call: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/),
    name: z.string().min(1).max(200),
    arguments: z.record(z.string(), z.unknown()).default({}),
    approved: z.boolean().optional(),
  })
  .strict();

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  const body = await readJson(req, callSchema);
  const result = await appToolCall(ctx, id, body.call, { name: body.name, arguments: body.arguments, approved: body.approved });
  return Response.json({ result });
});
