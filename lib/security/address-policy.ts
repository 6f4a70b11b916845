// Which network addresses Parley may send requests to for a provider or an MCP server (SSRF rules).
// Always refused: cloud-metadata services and link-local, unspecified, multicast and broadcast
// addresses. Allowed: public addresses and loopback (local model servers such as Ollama). Private
// and other internal ranges (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10, reserved ranges) only
// when the operator opts in with PARLEY_ALLOW_PRIVATE_URLS=1. Checked on the typed URL when saving
// and on every resolved address at connect time (outbound-fetch.ts).
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

/** The verdict for one IP address (IPv4-mapped IPv6 is judged as the IPv4 address it carries). */
export function judgeAddress(address: string, allowPrivate: boolean): AddressVerdict {
  if (!ipaddr.isValid(address)) return { ok: false, reason: `${address} is not an IP address.` };
  const ip = ipaddr.process(address);
  const text = ip.toString();
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
  return hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
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
