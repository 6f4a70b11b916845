// MCP Apps, the server half of the host: the page of the view a tool call declared. The call is named
// by its chat and tool call id; everything else comes from the stored block (its server and `ui://`
// URI, recorded when the tool was offered), never from the browser. The member must be able to see
// the chat, the server must be enabled in their team, and the resource is read through the pool with
// the member's own credential where the server takes members' own. The page must be an MCP Apps page
// (`text/html;profile=mcp-app`) no larger than a tool result may be (PARLEY_MAX_TOOL_RESULT_CHARS).
// The route serves it with its own policy (app-meta.ts): an opaque origin, so no script of the view
// reaches Parley's origin. Nothing is stored: a reload reads the page again.
import { db } from "../db/client";
import { AppError, NotFound } from "../errors";
import { config as settings } from "../config";
import { memberServerConfig } from "../identity/mcp-member-config";
import { appContentSecurityPolicy, isAppMimeType } from "../mcp/app-meta";
import { ConnectRequired } from "../mcp/oauth-provider";
import { acquire } from "../mcp/pool";
import { chatAccess } from "../sharing/access";
import type { McpServer } from "../db/generated/client";
import type { TeamContext } from "../teams/team-context";
import { blockToPart } from "../messages/parts";

export type AppPage = { html: string; csp: string; uri: string };

type Meta = { source?: string; serverId?: string; appUri?: string };
type Content = { uri?: string; mimeType?: string; text?: string; blob?: string; _meta?: { ui?: { csp?: Record<string, unknown> } } };

export const unavailable = (name: string, detail: string) => new AppError("ServerUnavailable", 502, `“${name}” could not give this app: ${detail}`);

/** The view a stored tool call declared, and its server, when the member can see the chat (404 otherwise). */
export async function appOfCall(ctx: TeamContext, chatId: string, toolCallId: string) {
  const { chat, owner } = await chatAccess(ctx, chatId);
  const prisma = await db();
  const block = await prisma.block.findFirst({ where: { kind: "tool", toolCallId, message: { chatId: chat.id } }, orderBy: { createdAt: "desc" } });
  if (!block) throw NotFound("No such tool call in this chat.");
  const meta = (blockToPart(block) as { toolMetadata?: Meta }).toolMetadata;
  const uri = meta?.source === "mcp" ? meta.appUri : undefined;
  if (!uri || !meta?.serverId) throw NotFound("This tool call has no app.");
  if (!uri.startsWith("ui://")) throw new AppError("NotAnApp", 422, `The app's address ${uri} is not a ui:// resource.`);
  const server = await prisma.mcpServer.findFirst({ where: { id: meta.serverId, teamId: chat.teamId, enabled: true } });
  if (!server) throw NotFound("The app's MCP server is not enabled in your team.");
  return { chat, owner, uri, server };
}

/** The member's settings for the app's server: ConnectRequired is theirs to fix (403). */
export async function appServerConfig(ctx: TeamContext, server: McpServer) {
  return memberServerConfig(server, ctx.user.id).catch((err: Error) => {
    if (err instanceof ConnectRequired) throw new AppError("ConnectRequired", 403, err.message);
    throw unavailable(server.name, "its stored secrets cannot be decrypted with this instance's key.");
  });
}

/** The view of a tool call the member can see, as the page to serve; a clear 4xx for anything else. */
export async function appPage(ctx: TeamContext, chatId: string, toolCallId: string): Promise<AppPage> {
  const { uri, server } = await appOfCall(ctx, chatId, toolCallId);
  const { config } = await appServerConfig(ctx, server);
  const signal = AbortSignal.timeout(config.connectTimeoutMs + config.callTimeoutMs);
  const conn = await acquire(config, { signal }).catch((err: Error) => {
    throw unavailable(server.name, err.message);
  });
  const read = await conn.catalog.readResource(uri, signal).catch((err: Error) => {
    throw unavailable(server.name, err.message);
  });
  const contents = read.contents as Content[];
  const page = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!page || !isAppMimeType(page.mimeType)) {
    throw new AppError("NotAnApp", 422, `${uri} is not an MCP Apps page (its type is ${page?.mimeType ?? "not given"}; an app is text/html;profile=mcp-app).`);
  }
  const limit = settings().PARLEY_MAX_TOOL_RESULT_CHARS;
  // A blob is base64: its decoded size is about three quarters of its length.
  const size = typeof page.text === "string" ? page.text.length : typeof page.blob === "string" ? Math.floor((page.blob.length * 3) / 4) : 0;
  if (size > limit)
    throw new AppError("AppTooLarge", 422, `The app's page is too large (${size.toLocaleString("en")} characters; at most ${limit.toLocaleString("en")}).`);
  const html = typeof page.text === "string" ? page.text : typeof page.blob === "string" ? Buffer.from(page.blob, "base64").toString("utf8") : undefined;
  if (html === undefined || !html.trim()) throw new AppError("NotAnApp", 422, `${uri} is empty.`);
  return { html, csp: appContentSecurityPolicy(page._meta?.ui?.csp), uri };
}
