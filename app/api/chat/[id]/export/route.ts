// GET ?format=md|json: the chat as a Markdown or JSON download, for anyone who may see it, named
// after the chat's title.
import { z } from "zod";
import { attachmentHeader, fileNameOf } from "@/lib/download-name";
import { handle, idParams } from "@/lib/http";
import { exportChat } from "@/lib/retention/export";
import { chatMarkdown } from "@/lib/retention/export-markdown";
import { requireTeam } from "@/app/_server/caller";

const query = z.object({ format: z.enum(["md", "json"]).default("md") });

export const GET = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { format } = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  const chat = await exportChat(ctx, (await idParams(params)).id);
  const body = format === "md" ? chatMarkdown(chat) : JSON.stringify(chat, null, 2);
  return new Response(body, {
    headers: {
      "content-type": format === "md" ? "text/markdown; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": attachmentHeader(fileNameOf(chat.title, format)),
    },
  });
});
