// What the team's MCP servers offer besides tools, for the composer: their resources and resource
// templates (a member attaches them to a message) and their prompts (a member picks one with "/").
// Only enabled servers of the member's team; each server within its connect timeout (one that is
// down is listed with its error, never breaks the list). An attached resource is read on the server,
// by id and URI, when the message is sent: its text (cut at MAX_ATTACHMENT_CHARS) or image is stored
// with the message, so the history never depends on the server again.
import { db } from "../db/client";
import { AppError, Invalid, NotFound } from "../errors";
import type { McpFailure } from "../mcp/failures";
import { acquire } from "../mcp/pool";
import { serverConfig } from "../mcp/servers";
import type { TeamContext } from "../teams/team-context";
import type { ResourceData } from "../messages/message-types";

/** The most characters of an attached resource's text kept (and read by the model). */
export const MAX_ATTACHMENT_CHARS = 100_000;
/** The largest attached image kept (base64 characters, about 1.5 MB of image). */
const MAX_IMAGE_CHARS = 2_000_000;
const LIST_MAX = 200;

type PromptArg = { name: string; description?: string; required?: boolean };
export type CatalogServer = {
  id: string;
  name: string;
  error?: string;
  resources: { uri: string; name: string; title?: string; description?: string; mimeType?: string }[];
  templates: { uriTemplate: string; name: string; title?: string; description?: string }[];
  prompts: { name: string; title?: string; description?: string; arguments: PromptArg[] }[];
};

async function teamServer(ctx: TeamContext, serverId: string) {
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id, enabled: true } });
  if (!server) throw NotFound("No such MCP server in your team.");
  return { server, config: serverConfig(server) };
}

async function session(config: ReturnType<typeof serverConfig>) {
  const signal = AbortSignal.timeout(config.connectTimeoutMs);
  return { conn: await acquire(config, { signal }), signal };
}

/** The resources, templates and prompts of the team's enabled servers. */
export async function teamCatalog(ctx: TeamContext): Promise<CatalogServer[]> {
  const prisma = await db();
  const servers = await prisma.mcpServer.findMany({ where: { teamId: ctx.team.id, enabled: true }, orderBy: { name: "asc" } });
  return Promise.all(
    servers.map(async (server): Promise<CatalogServer> => {
      const out: CatalogServer = { id: server.id, name: server.name, resources: [], templates: [], prompts: [] };
      try {
        const { conn, signal } = await session(serverConfig(server));
        const [res, prompts] = await Promise.all([
          conn.catalog.has("resources") ? conn.catalog.listResources(signal) : undefined,
          conn.catalog.has("prompts") ? conn.catalog.listPrompts(signal) : undefined,
        ]);
        // MCP Apps views (ui://) are pages for tool blocks, not something to attach.
        out.resources = (res?.resources ?? [])
          .filter((r) => !r.uri.startsWith("ui://"))
          .slice(0, LIST_MAX)
          .map((r) => ({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType }));
        out.templates = (res?.templates ?? [])
          .slice(0, LIST_MAX)
          .map((t) => ({ uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description }));
        out.prompts = (prompts ?? []).slice(0, LIST_MAX).map((p) => ({
          name: p.name,
          title: p.title,
          description: p.description,
          arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required })),
        }));
      } catch (err) {
        out.error = (err as Error).message;
      }
      return out;
    }),
  );
}

/** A prompt's messages as text, ready for the composer. */
export async function promptMessages(
  ctx: TeamContext,
  serverId: string,
  name: string,
  args: Record<string, string>,
): Promise<{ messages: { role: string; text: string }[] }> {
  const { config } = await teamServer(ctx, serverId);
  const unavailable = (err: Error) => new AppError("ServerUnavailable", 502, `“${config.name}” could not give this prompt: ${err.message}`);
  const { conn, signal } = await session(config).catch((err: Error) => {
    throw unavailable(err);
  });
  const res = await conn.catalog.getPrompt(name, args, signal).catch((err: McpFailure) => {
    // The server refused the arguments (or knows no such prompt): the member's input, a 400.
    throw err.rpcCode === -32602 || err.rpcCode === -32601 ? Invalid(err.detail) : unavailable(err);
  });
  return {
    messages: res.messages.map((m) => {
      const c = m.content as { type: string; text?: string; resource?: { uri: string; text?: string }; mimeType?: string };
      const text =
        c.type === "text"
          ? (c.text ?? "")
          : c.type === "resource"
            ? (c.resource?.text ?? `[resource ${c.resource?.uri}]`)
            : `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ""}]`;
      return { role: m.role, text };
    }),
  };
}

/** Reads attached resources for a message: their text (cut) or image, as stored with it. */
export async function readAttachments(ctx: TeamContext, refs: { serverId: string; uri: string }[]): Promise<ResourceData[]> {
  return Promise.all(
    refs.map(async (ref) => {
      const { server, config } = await teamServer(ctx, ref.serverId);
      const { conn, signal } = await session(config).catch((err: Error) => {
        throw new AppError("ResourceUnavailable", 502, `“${server.name}” is unavailable: ${err.message}`);
      });
      const read = await conn.catalog.readResource(ref.uri, AbortSignal.any([signal, AbortSignal.timeout(config.callTimeoutMs)])).catch((err: Error) => {
        throw new AppError("ResourceUnavailable", 502, `Could not read ${ref.uri} from “${server.name}”: ${err.message}`);
      });
      const first = read.contents[0] as { uri: string; mimeType?: string; text?: string; blob?: string } | undefined;
      const base: ResourceData = { serverId: server.id, serverName: server.name, uri: ref.uri, mimeType: first?.mimeType };
      if (!first) return { ...base, text: "" };
      if (typeof first.text === "string") {
        const text = read.contents.map((c) => (c as { text?: string }).text ?? "").join("\n");
        return text.length > MAX_ATTACHMENT_CHARS ? { ...base, text: text.slice(0, MAX_ATTACHMENT_CHARS), truncatedFrom: text.length } : { ...base, text };
      }
      if (first.blob && first.mimeType?.startsWith("image/") && first.blob.length <= MAX_IMAGE_CHARS) return { ...base, image: first.blob };
      return { ...base, text: `[binary resource${first.mimeType ? ` ${first.mimeType}` : ""}, not attached]` };
    }),
  );
}
