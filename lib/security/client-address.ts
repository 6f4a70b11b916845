// The address of the client behind a request, for rate limits and the session record. The server
// stamps every request with the address of the connection it came on (scripts/connection-address.mjs,
// loaded by `npm start`), replacing whatever a client sent under that name. X-Forwarded-For and
// X-Real-IP are believed only when that connection comes from a proxy listed in PARLEY_TRUSTED_PROXIES:
// the chain is read right to left, trusted proxies skipped, and the first other address is the client.
// Without the stamp (`next dev`, `next start` run directly) the address is unknown: callers then limit
// per account only, never with one bucket shared by everyone.
import ipaddr from "ipaddr.js";
import { config } from "../config";

/** Set by the server from the connection, on every request (see scripts/connection-address.mjs). */
export const CONNECTION_HEADER = "x-parley-connection-address";
/** Set by the server code (route and actions) to the client address worked out here, for better-auth. */
export const CLIENT_HEADER = "x-parley-client-address";
/** Set by the server from the request as it arrived: "1" when it came with forwarding headers (a proxy's). */
export const FORWARDED_HEADER = "x-parley-forwarded";

const STAMPED = Symbol.for("parley.connectionAddress");

/** Whether this process's HTTP server stamps requests with their connection's address. */
export function connectionStamped(): boolean {
  return (globalThis as { [STAMPED]?: boolean })[STAMPED] === true;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address as written (IPv4-mapped IPv6 counts as IPv4), or undefined when it is not one. */
function parse(text: string | null | undefined): Address | undefined {
  const v = text?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!v || !ipaddr.isValid(v)) return undefined;
  if (v.includes(".") && !v.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(v)) return undefined;
  return ipaddr.process(v);
}

let parsedFor: string[] | undefined;
let ranges: [Address, number][] = [];
function trustedRanges(): [Address, number][] {
  const list = config().PARLEY_TRUSTED_PROXIES;
  if (list !== parsedFor) {
    parsedFor = list;
    ranges = list.map((entry) => {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry);
      const a = ipaddr.process(entry);
      return [a, a.kind() === "ipv4" ? 32 : 128];
    });
  }
  return ranges;
}

function trusted(address: Address): boolean {
  return trustedRanges().some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));
}

/** The client's address, or undefined when this process cannot know it. */
export function clientAddress(headers: Headers): string | undefined {
  if (!connectionStamped()) return undefined;
  const peer = parse(headers.get(CONNECTION_HEADER));
  if (!peer) return undefined;
  if (!trusted(peer)) return peer.toString();
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!chain.length) return parse(headers.get("x-real-ip"))?.toString() ?? peer.toString();
  let client: Address = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = parse(chain[i]);
    // A hop that is not an address was written by someone we cannot trust: the last trusted hop's word ends there.
    if (!hop) break;
    client = hop;
    if (!trusted(hop)) break;
  }
  return client.toString();
}

/**
 * What to count an address's attempts under: the address itself, or for IPv6 its /64 network (one
 * client commonly holds a whole /64).
 */
export function addressBucket(address: string): string {
  const a = ipaddr.parse(address);
  if (a.kind() === "ipv4") return a.toString();
  const parts = (a as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

/** The headers with CLIENT_HEADER set to the client's address (or removed when unknown). */
export function withClientAddress(headers: Headers): Headers {
  const out = new Headers(headers);
  const address = clientAddress(headers);
  if (address) out.set(CLIENT_HEADER, address);
  else out.delete(CLIENT_HEADER);
  return out;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a request comes from this machine itself: its connection is from a loopback address, it
 * was opened as localhost / 127.0.0.1 / [::1], and nothing says it was forwarded (a reverse proxy on
 * this machine adds X-Forwarded-For, X-Real-IP or Forwarded, or names the public host; Next.js adds
 * its own X-Forwarded-* later, so the server notes them as they arrived, see FORWARDED_HEADER).
 * Unknown (no connection stamp) counts as not local.
 */
export function fromThisMachine(headers: Headers): boolean {
  if (!connectionStamped()) return false;
  const peer = parse(headers.get(CONNECTION_HEADER));
  if (!peer || peer.range() !== "loopback") return false;
  if (headers.get(FORWARDED_HEADER) !== "0") return false;
  const host = (headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
  return LOOPBACK_HOSTS.has(host);
}
