// A session's resources, resource templates and prompts (what a member attaches to a message or picks
// with "/"), each request within the connect timeout and the caller's signal, paged to a bound.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { classifyFailure } from "./failures";

export type McpCatalogAccess = {
  has(kind: "resources" | "prompts"): boolean;
  listResources(signal: AbortSignal): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }>;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  listPrompts(signal: AbortSignal): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult>;
};

/** The session's resources and prompts, each request within `timeout` (and the caller's signal). */
export function catalogOf(client: Client, timeout: number, what: string): McpCatalogAccess {
  const run = async <T>(signal: AbortSignal, fn: (opts: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> => {
    try {
      return await fn({ signal, timeout });
    } catch (err) {
      throw classifyFailure(signal.aborted ? signal.reason : err, what);
    }
  };
  const pages = async <T>(signal: AbortSignal, page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> => {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await run(signal, () => page(cursor));
      out.push(...res.items);
      if (!(cursor = res.next)) break;
    }
    return out;
  };
  return {
    has: (kind) => !!client.getServerCapabilities()?.[kind],
    async listResources(signal) {
      const opts = { signal, timeout };
      const [resources, templates] = await Promise.all([
        pages(signal, async (cursor) => {
          const r = await client.listResources(cursor ? { cursor } : undefined, opts);
          return { items: r.resources, next: r.nextCursor };
        }),
        pages(signal, async (cursor) => {
          const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, opts);
          return { items: r.resourceTemplates, next: r.nextCursor };
        }),
      ]);
      return { resources, templates };
    },
    readResource: (uri, signal) => run(signal, (opts) => client.readResource({ uri }, opts)),
    listPrompts: (signal) =>
      pages(signal, async (cursor) => {
        const r = await client.listPrompts(cursor ? { cursor } : undefined, { signal, timeout });
        return { items: r.prompts, next: r.nextCursor };
      }),
    getPrompt: (name, args, signal) => run(signal, (opts) => client.getPrompt({ name, arguments: args }, opts)),
  };
}
