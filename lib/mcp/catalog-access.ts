// A session's resources, resource templates and prompts (what a member attaches to a message or picks
// with "/"), each request within the connect timeout and the caller's signal; the SDK follows the pages
// (up to the client's cap). Updates to one resource are followed on either revision: a
// `subscriptions/listen` stream on 2026-07-28, `resources/subscribe` on 2025.
import type { Client, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import { classifyFailure } from "./failures";

export type McpCatalogAccess = {
  has(kind: "resources" | "prompts"): boolean;
  listResources(signal: AbortSignal): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }>;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  listPrompts(signal: AbortSignal): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult>;
  /**
   * Calls `onUpdated` whenever the server says the resource changed, until the returned stop is
   * called. Throws when the server offers no subscriptions.
   */
  watchResource(uri: string, onUpdated: () => void, signal: AbortSignal): Promise<() => Promise<void>>;
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
  const watchers = new Map<string, Set<() => void>>();
  client.setNotificationHandler("notifications/resources/updated", (n) => {
    for (const fn of watchers.get(n.params.uri) ?? []) fn();
  });
  return {
    has: (kind) => !!client.getServerCapabilities()?.[kind],
    listResources: (signal) =>
      run(signal, async (opts) => {
        // A person asked: fetched again rather than served from the SDK's cache.
        const [r, t] = await Promise.all([
          client.listResources(undefined, { ...opts, cacheMode: "refresh" }),
          client.listResourceTemplates(undefined, { ...opts, cacheMode: "refresh" }),
        ]);
        return { resources: r.resources, templates: t.resourceTemplates };
      }),
    // A view or an attachment is read as it is now, whatever freshness the server suggested.
    readResource: (uri, signal) => run(signal, (opts) => client.readResource({ uri }, { ...opts, cacheMode: "bypass" })),
    listPrompts: (signal) => run(signal, async (opts) => (await client.listPrompts(undefined, { ...opts, cacheMode: "refresh" })).prompts),
    getPrompt: (name, args, signal) => run(signal, (opts) => client.getPrompt({ name, arguments: args }, opts)),
    watchResource: (uri, onUpdated, signal) =>
      run(signal, async (opts) => {
        const set = watchers.get(uri) ?? new Set();
        watchers.set(uri, set.add(onUpdated));
        const forget = () => {
          set.delete(onUpdated);
          if (!set.size) watchers.delete(uri);
        };
        try {
          if (client.getProtocolEra() === "modern") {
            const sub = await client.listen({ resourceSubscriptions: [uri] }, opts);
            if (!sub.honoredFilter.resourceSubscriptions?.includes(uri)) throw new Error(`the server does not offer updates for ${uri}`);
            return async () => {
              forget();
              await sub.close();
            };
          }
          await client.subscribeResource({ uri }, opts);
          return async () => {
            forget();
            if (!set.size) await client.unsubscribeResource({ uri }, { timeout }).catch(() => {});
          };
        } catch (err) {
          forget();
          throw err;
        }
      }),
  };
}
