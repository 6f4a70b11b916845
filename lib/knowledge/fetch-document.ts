// Adding a knowledge document from a URL: fetches the page or file through the guarded outbound fetch
// (lib/security/outbound-fetch.ts: every resolved address judged, redirects only within the same
// server), with a time limit and the size cap of a document, takes its type from Content-Type (else
// the URL's name) and its name from the page's title or the URL, and hands it to addDocument. A
// member can read what is fetched, so loopback is refused here too unless the operator allows
// private targets (PARLEY_ALLOW_PRIVATE_URLS=1). A member may have URLs fetched at most URL_FETCH_LIMIT
// times a minute (429 past it). Every failure is a 4xx saying what went wrong.
import dns from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { config } from "../config";
import { AppError, Invalid } from "../errors";
import { bareHost, judgeUrl } from "../security/address-policy";
import { createOutboundFetch, OutboundRefused, type Resolve } from "../security/outbound-fetch";
import { rateLimiter, type RateLimiter } from "../security/rate-limit";
import { manageableBase, type Caller } from "./access";
import { addDocument, type DocumentFile } from "./documents";
import { detectFormat } from "./extract/index";
import { MAX_DOCUMENT_BYTES } from "./extract/types";
import { charsetOf, decodeText } from "./extract/text-encoding";
import { mediaTypeOfName, readCapped } from "./document-file";

export const FETCH_TIMEOUT_MS = 20_000;
/** URLs one member may have fetched in a minute: each may pull 50 MB into the server. */
export const URL_FETCH_LIMIT = 20;

const LIMIT_KEY = Symbol.for("parley.knowledgeUrlLimit");
const limitHolder = globalThis as { [LIMIT_KEY]?: RateLimiter };

function urlFetchLimit(): RateLimiter {
  return (limitHolder[LIMIT_KEY] ??= rateLimiter({
    name: "knowledge-url",
    limit: URL_FETCH_LIMIT,
    windowMs: 60_000,
    message: "You are adding documents from URLs too fast. Wait a minute and try again.",
  }));
}

/** POST body of "Add from URL". */
export const documentUrlSchema = z.object({ url: z.string().trim().min(1, "Enter a URL.").max(2_000, "At most 2,000 characters.") }).strict();

export type FetchOptions = {
  /** Name resolution (tests); the system resolver by default. */
  resolve?: Resolve;
  timeoutMs?: number;
  maxBytes?: number;
};

const refused = (message: string) => new AppError("UrlRefused", 422, message, { url: message });
const unreachable = (message: string) => new AppError("UrlUnreachable", 422, message, { url: message });
const tooLarge = (url: string, max: number) =>
  new AppError("TooLarge", 413, `${url} is larger than ${Math.round(max / 1024 / 1024)} MB, the most one document may be.`, {
    url: "The file is too large.",
  });

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";
const loopbackRefusal = (host: string) =>
  new OutboundRefused(`Refused to connect to ${host}: it is this server's own address. The operator allows such targets with PARLEY_ALLOW_PRIVATE_URLS=1.`);

/** The URL as typed, checked: http(s), no credentials, an address the policy allows. */
export function checkDocumentUrl(typed: string): URL {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    throw Invalid("That is not a valid URL.", { url: "Enter a full URL, such as https://example.com/handbook.pdf." });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw Invalid("Only http and https URLs can be fetched.", { url: "Use an http or https URL." });
  if (url.username || url.password) throw Invalid("A URL with a user name or password in it is not accepted.", { url: "Remove the credentials from the URL." });
  const allowPrivate = config().PARLEY_ALLOW_PRIVATE_URLS;
  const verdict = judgeUrl(url.href, allowPrivate);
  if (!verdict.ok) throw refused(verdict.reason);
  const host = bareHost(url.hostname);
  if (!allowPrivate && isIP(host) && isLoopback(host)) throw refused(loopbackRefusal(host).message);
  url.hash = "";
  return url;
}

/** The guarded fetch with loopback refused as well (unless private targets are allowed). */
function documentFetch(resolve: Resolve): typeof fetch {
  return createOutboundFetch({
    resolve: async (host) => {
      const list = await resolve(host);
      if (!config().PARLEY_ALLOW_PRIVATE_URLS && list.some((a) => isLoopback(a.address))) throw loopbackRefusal(host);
      return list;
    },
  });
}

function failureOf(err: unknown, url: string, timeoutMs: number): AppError {
  const e = err as { name?: string; message?: string; cause?: { name?: string; code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError" || e.cause?.name === "TimeoutError")
    return unreachable(`${url} did not answer within ${timeoutMs / 1000} s.`);
  if (e.cause instanceof OutboundRefused || e.cause?.name === "OutboundRefused") return refused(e.cause.message ?? "The address is refused.");
  let code: string | undefined;
  for (let c: unknown = e.cause, i = 0; c && i < 4 && !code; i++) {
    const o = c as { code?: unknown; errors?: { code?: unknown }[]; cause?: unknown };
    code = typeof o.code === "string" ? o.code : typeof o.errors?.[0]?.code === "string" ? (o.errors[0].code as string) : undefined;
    c = o.cause;
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return unreachable(`The host of ${url} could not be found.`);
  if (code === "ECONNREFUSED") return unreachable(`${url} refused the connection. Is the server up?`);
  return unreachable(`${url} could not be reached${code ? ` (${code})` : ""}.`);
}

/** The body, read up to `max` bytes (413 past it, declared or read). */
async function readBody(res: Response, url: string, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(url, max);
  }
  // Node's web streams are async iterables (the DOM typings do not say so).
  const bytes = res.body ? await readCapped(res.body as unknown as AsyncIterable<Uint8Array>, max) : new Uint8Array(0);
  if (bytes === "too-large") throw tooLarge(url, max);
  return bytes;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)));

/** A document's name: an HTML page's title, else the URL's last path segment, else its host. */
export function documentName(url: URL, mediaType: string, bytes: Uint8Array): string {
  if (mediaType === "text/html") {
    const head = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1];
    const clean = title && decodeEntities(title).replace(/\s+/g, " ").trim();
    if (clean) return clean.slice(0, 200);
  }
  const last = url.pathname.split("/").filter(Boolean).pop();
  let name = url.hostname;
  if (last) {
    try {
      name = decodeURIComponent(last);
    } catch {
      name = last;
    }
  }
  return name.replace(/[\u0000-\u001f]/g, "").slice(0, 200) || url.hostname;
}

/** The media type: Content-Type unless it is generic, else from the URL's name. */
function mediaTypeOf(contentType: string | null, url: URL): string {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type && type !== "application/octet-stream" && type !== "binary/octet-stream") return type === "application/xhtml+xml" ? "text/html" : type;
  return mediaTypeOfName(url.pathname);
}

/**
 * Text the server sent in another encoding it named (Content-Type's charset) is stored as UTF-8, so the
 * document reads the same wherever it goes; anything else is kept as it came.
 */
function asUtf8(bytes: Uint8Array, mediaType: string, charset: string | undefined): Uint8Array {
  if (!charset || charset === "utf-8" || charset === "utf8" || !/^text\/|\+xml$/.test(mediaType)) return bytes;
  const decoded = decodeText(bytes, { charset });
  return decoded.ok ? new TextEncoder().encode(decoded.text) : bytes;
}

/** Fetches `typed` as a document file: its name, media type and bytes. Throws a 4xx AppError. */
export async function fetchDocumentFile(typed: string, options: FetchOptions = {}): Promise<DocumentFile> {
  const url = checkDocumentUrl(typed);
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const max = options.maxBytes ?? MAX_DOCUMENT_BYTES;
  const shown = url.href;
  let res: Response;
  let bytes: Uint8Array;
  try {
    res = await documentFetch(options.resolve ?? systemResolve)(url.href, {
      headers: { accept: "text/html, application/pdf, text/markdown, text/plain, text/csv, */*;q=0.5", "user-agent": "Parley knowledge fetcher" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw unreachable(`${shown} answered with HTTP ${res.status}${res.status >= 300 && res.status < 400 ? " (a redirect Parley does not follow)" : ""}.`);
    }
    bytes = await readBody(res, shown, max);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw failureOf(err, shown, timeoutMs);
  }
  if (bytes.byteLength === 0) throw unreachable(`${shown} answered with nothing.`);
  const mediaType = mediaTypeOf(res.headers.get("content-type"), url);
  bytes = asUtf8(bytes, mediaType, charsetOf(res.headers.get("content-type")));
  const name = documentName(url, mediaType, bytes);
  const format = detectFormat(bytes, mediaType, name);
  if (typeof format !== "string") {
    const message = format.failure.ok ? "The file cannot be read." : format.failure.message;
    throw new AppError("UnsupportedDocument", 422, `${shown}: ${message}`, { url: message });
  }
  const extension = { pdf: "pdf", docx: "docx", html: "html", markdown: "md", csv: "csv", text: "txt" }[format];
  return { name: /\.[a-z0-9]+$/i.test(name) ? name : `${name}.${extension}`, mediaType, bytes, sourceUrl: url.href };
}

/** Fetches the URL and adds it to the base as a queued document (the caller must be allowed to add first). */
export async function addDocumentFromUrl(ctx: Caller, baseId: string, typed: string, options: FetchOptions = {}): Promise<{ id: string; name: string }> {
  await manageableBase(ctx, baseId); // no request leaves for someone who may not add documents
  await urlFetchLimit().hit(ctx.user.id);
  const file = await fetchDocumentFile(typed, options);
  const added = await addDocument(ctx, baseId, file);
  return { id: added.id, name: file.name.trim() };
}
