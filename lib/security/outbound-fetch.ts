// The fetch Parley uses to reach providers and MCP servers (URLs an admin typed). At connect time it
// resolves the host itself, judges every address it resolves to (address-policy.ts), and connects to
// the checked address (so a second DNS answer cannot swap it). Redirects are followed only within
// the same origin: a redirect to another server fails visibly, so credentials never go along.
import dns from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { config } from "../config";
import { bareHost, judgeAddress } from "./address-policy";

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export type OutboundOptions = {
  /** Name resolution (tests map names to addresses); the system resolver by default. */
  resolve?: Resolve;
  /** Whether private addresses are allowed; PARLEY_ALLOW_PRIVATE_URLS by default (read per connection). */
  allowPrivate?: () => boolean;
};

/** Thrown (as the cause of fetch's TypeError) when an address or a redirect is refused. */
export class OutboundRefused extends Error {
  readonly code = "EPARLEYREFUSED";
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefused";
  }
}

const MAX_REDIRECTS = 5;
const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Errors after which the next checked address is tried (as Node's own fetch tries IPv6 and IPv4). */
const TRY_NEXT = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT", "UND_ERR_CONNECT_TIMEOUT"]);

function guardedConnector(resolve: Resolve, allowPrivate: () => boolean): buildConnector.connector {
  const connect = buildConnector({ timeout: 10_000 });
  return (opts, callback) => {
    const host = bareHost(opts.hostname);
    const addresses = isIP(host) ? Promise.resolve([{ address: host, family: isIP(host) }]) : resolve(host);
    addresses.then(
      (list) => {
        if (!list.length) return callback(new OutboundRefused(`${host} did not resolve to any address.`), null);
        for (const { address } of list) {
          const verdict = judgeAddress(address, allowPrivate());
          if (!verdict.ok) return callback(new OutboundRefused(`Refused to connect to ${host}: ${verdict.reason}`), null);
        }
        // Connect to a checked address (the next one if it refuses, e.g. ::1 when the server listens on
        // IPv4 only); TLS still verifies the certificate for the host name.
        const attempt = (i: number) => {
          const ip = list[i].address;
          connect({ ...opts, hostname: ip.includes(":") ? `[${ip}]` : ip, servername: opts.servername ?? (isIP(host) ? undefined : host) }, (err, socket) => {
            const code = (err as { code?: string } | null)?.code;
            if (err && code && TRY_NEXT.has(code) && i + 1 < list.length) return attempt(i + 1);
            if (err) return callback(err, null);
            callback(null, socket!);
          });
        };
        attempt(0);
      },
      (err: Error) => callback(err, null),
    );
  };
}

/**
 * The connect-time rule on its own: resolves the URL's host and throws an OutboundRefused when any
 * address is refused. MCP sessions check this before they open (a clear refusal before the SDK's
 * transport starts); their connections go through the outbound fetch all the same.
 */
export async function checkTarget(url: string, options: OutboundOptions = {}): Promise<void> {
  const host = bareHost(new URL(url).hostname);
  const allowPrivate = (options.allowPrivate ?? (() => config().PARLEY_ALLOW_PRIVATE_URLS))();
  const list = isIP(host) ? [{ address: host, family: isIP(host) }] : await (options.resolve ?? systemResolve)(host);
  for (const { address } of list) {
    const verdict = judgeAddress(address, allowPrivate);
    if (!verdict.ok) throw new OutboundRefused(`Refused to connect to ${host}: ${verdict.reason}`);
  }
}

type FetchInput = string | URL | Request;

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** A fetch for admin-typed URLs: guarded connections, same-origin redirects only. */
export function createOutboundFetch(options: OutboundOptions = {}): typeof fetch {
  const allowPrivate = options.allowPrivate ?? (() => config().PARLEY_ALLOW_PRIVATE_URLS);
  const dispatcher = new Agent({ connect: guardedConnector(options.resolve ?? systemResolve, allowPrivate) });
  const raw = (input: FetchInput, init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never) as unknown as Promise<Response>;

  return (async (input: FetchInput, init?: RequestInit) => {
    // A caller that handles redirects itself (the MCP SDK can) sees them as they are.
    if (init?.redirect === "manual" || init?.redirect === "error") return raw(input, init);
    let url = new URL(input instanceof Request ? input.url : String(input));
    let request = { ...init, redirect: "manual" as const };
    for (let hop = 0; ; hop++) {
      const res = await raw(hop === 0 ? input : url, request);
      const location = res.headers.get("location");
      if (!isRedirect(res.status) || !location) return res;
      const next = new URL(location, url);
      await res.body?.cancel().catch(() => {});
      if (next.origin !== url.origin) {
        throw new TypeError("fetch failed", {
          cause: new OutboundRefused(`${url.origin} redirected to another server (${next.origin}); Parley does not follow redirects to other servers.`),
        });
      }
      if (hop >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new OutboundRefused(`Too many redirects from ${url.origin}.`) });
      const method = (request.method ?? "GET").toUpperCase();
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) request = { ...request, method: "GET", body: undefined };
      url = next;
    }
  }) as typeof fetch;
}

const KEY = Symbol.for("parley.outboundFetch");
const holder = globalThis as { [KEY]?: typeof fetch };

/** The process-wide outbound fetch (one connection pool). */
export function outboundFetch(): typeof fetch {
  return (holder[KEY] ??= createOutboundFetch());
}
