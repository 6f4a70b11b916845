// Which network addresses Parley may send requests to for a provider or an MCP server (SSRF rules).
// Always refused: cloud-metadata services and link-local, unspecified, multicast and broadcast
// addresses. Allowed: public addresses and loopback (local model servers such as Ollama). Private
// and other internal ranges (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10, reserved ranges) only
// when the operator opts in with PARLEY_ALLOW_PRIVATE_URLS=1. An IPv6 address that carries an IPv4
// address (mapped, compatible, SIIT, NAT64, 6to4, Teredo) is refused when the IPv4 address would be.
// Checked on the typed URL when saving and on every resolved address at connect time (outbound-fetch.ts).
import ipaddr from "ipaddr.js";

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** Metadata endpoints that sit in ranges otherwise allowed by the opt-in (AWS IPv6, Alibaba). */
const METADATA_ADDRESSES = new Set(["fd00:ec2::254", "100.100.100.200", "169.254.169.254", "169.254.170.2"]);
/** Host names of metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

const ALWAYS_REFUSED = new Set(["linkLocal", "unspecified", "multicast", "broadcast"]);
const ALLOWED = new Set(["unicast", "loopback"]);

const refused = (address: string) => ({
  ok: false as const,
  reason: `${address} is a cloud-metadata or link-local address; Parley never connects there.`,
});

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

/** The IPv4 addresses an IPv6 address carries by a standard embedding (RFC 4291, 6145, 6052, 8215, 3056, 4380). */
export function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = ip.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const found: ipaddr.IPv4[] = [];
  // ::a.b.c.d (compatible; not :: or ::1 themselves), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT).
  if (zero(0, 5) && ((p[5] === 0 && p[6] !== 0) || p[5] === 0xffff)) found.push(v4(p[6], p[7]));
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) found.push(v4(p[6], p[7]));
  // NAT64: 64:ff9b::/96 and the local-use 64:ff9b:1::/48 (its usual /96 layout).
  if (p[0] === 0x64 && p[1] === 0xff9b && (zero(2, 6) || p[2] === 1)) found.push(v4(p[6], p[7]));
  // 6to4: 2002:AABB:CCDD::/48.
  if (p[0] === 0x2002) found.push(v4(p[1], p[2]));
  // Teredo: 2001:0:SERVER:SERVER:flags:port:~CLIENT:~CLIENT.
  if (p[0] === 0x2001 && p[1] === 0) found.push(v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff));
  return found;
}

/** The verdict for one IP address (IPv6 that carries an IPv4 address is judged by that address too). */
export function judgeAddress(address: string, allowPrivate: boolean): AddressVerdict {
  if (!ipaddr.isValid(address)) return { ok: false, reason: `${address} is not an IP address.` };
  const ip = ipaddr.process(address);
  const text = ip.toString();
  if (ip.kind() === "ipv6") {
    for (const inner of embeddedIpv4(ip as ipaddr.IPv6)) {
      const verdict = judgeAddress(inner.toString(), allowPrivate);
      if (!verdict.ok) return { ok: false, reason: `${text} carries the IPv4 address ${inner.toString()}: ${verdict.reason}` };
    }
  }
  if (METADATA_ADDRESSES.has(text)) return refused(text);
  const range = ip.range();
  if (ALWAYS_REFUSED.has(range)) return refused(text);
  if (ALLOWED.has(range) || allowPrivate) return { ok: true };
  return {
    ok: false,
    reason: `${text} is a private or internal address. The operator allows such targets with PARLEY_ALLOW_PRIVATE_URLS=1.`,
  };
}

/** URL host without IPv6 brackets, lower case, without a trailing dot. */
export function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

/**
 * The check on a typed URL (at save time): metadata host names, and IP literals by the rules above.
 * Names are judged again after DNS resolution when a connection is made.
 */
export function judgeUrl(url: string, allowPrivate: boolean): AddressVerdict {
  let host: string;
  try {
    host = bareHost(new URL(url).hostname);
  } catch {
    return { ok: false, reason: "Not a valid URL." };
  }
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: `${host} is a cloud-metadata service; Parley never connects there.` };
  // WHATWG URL parsing turns "http://2852039166/" and "0xa9.254.169.254" into dotted quads already.
  return ipaddr.isValid(host) ? judgeAddress(host, allowPrivate) : { ok: true };
}
