// Adding a knowledge document from a URL, against real HTTP servers on loopback: loopback is refused
// unless the operator allows private targets (PARLEY_ALLOW_PRIVATE_URLS=1), and then a Markdown file
// and an HTML page are fetched and queued (named by the URL and by the page's title); a bad URL is 400,
// a metadata address, a redirect to another server, an error status, an unreachable server, a silent
// server past the time limit and an unreadable type are 422, a file past the size cap 413, the same
// page twice 409; a member who may not add documents sends no request at all (403); past the limit
// of URLs a minute, 429 and nothing fetched.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, rejection } from "@/test/support/test-app";
import { DRIVERS } from "@/test/support/test-databases";
import { knowledgeTeam, type KnowledgeTeam } from "@/test/support/knowledge";
import { startScripted } from "@/test/support/test-upstreams";
import { createKnowledgeBase } from "./knowledge-bases";
import { listDocuments } from "./documents";
import { addDocumentFromUrl, URL_FETCH_LIMIT, fetchDocumentFile } from "./fetch-document";

const MD = "# Refunds\n\nWithin 30 days of purchase.\n";
const PAGE = "<!doctype html><html><head><title>Travel &amp; expenses</title></head><body><h1>Travel</h1><p>Book economy.</p></body></html>";

let stopApp: () => Promise<void>;
let site: Awaited<ReturnType<typeof startScripted>>;
let team: KnowledgeTeam;
let baseId = "";
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ({ stop: stopApp } = await startTestApp(DRIVERS[0]));
  site = await startScripted((req, res) => {
    const path = req.path;
    if (path === "/docs/refunds.md") return void res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(MD);
    if (path === "/travel") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    if (path === "/files/notes.txt") return void res.writeHead(200, { "content-type": "application/octet-stream" }).end("Plain notes.");
    if (path === "/missing") return void res.writeHead(404).end("no");
    if (path === "/latin1.txt")
      return void res.writeHead(200, { "content-type": "text/plain; charset=ISO-8859-1" }).end(Buffer.from("Caf\u00e9 cr\u00e8me", "latin1"));
    if (path === "/image.png")
      return void res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    if (path === "/elsewhere") return void res.writeHead(302, { location: "http://localhost:9/secret" }).end();
    if (path === "/declared-big") return void res.writeHead(200, { "content-type": "text/plain", "content-length": String(60 * 1024 * 1024) }).end();
    if (path === "/streamed-big") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("x".repeat(600));
      return void res.end("x".repeat(600));
    }
    res.writeHead(404).end();
  });
  stops.push(site.stop);
  team = await knowledgeTeam("From URLs");
  baseId = (await createKnowledgeBase(team.admin, { name: "Web", embedding: { providerId: team.providerId, model: "m", dimensions: 3 } })).id;
}, 180_000);
afterEach(() => {
  delete process.env.PARLEY_ALLOW_PRIVATE_URLS;
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await stopApp?.();
});

const allowPrivate = () => {
  process.env.PARLEY_ALLOW_PRIVATE_URLS = "1";
};

describe("adding a document from a URL", () => {
  it("refuses this server's own addresses unless the operator allows private targets, then fetches and queues the file", async () => {
    const url = `${site.url}/docs/refunds.md`;
    const before = site.requests.length;
    const refusedLiteral = await rejection(addDocumentFromUrl(team.admin, baseId, url));
    expect(refusedLiteral.status).toBe(422);
    expect(refusedLiteral.message).toMatch(/127\.0\.0\.1.*PARLEY_ALLOW_PRIVATE_URLS=1/);
    // A name that resolves to loopback is refused at connect time as well.
    const byName = await rejection(addDocumentFromUrl(team.admin, baseId, url.replace("127.0.0.1", "localhost")));
    expect(byName.status).toBe(422);
    expect(byName.message).toMatch(/localhost.*own address/);
    for (const literal of ["http://[::1]/notes.md", "http://[::ffff:127.0.0.1]/notes.md", "http://127.1/notes.md"]) {
      expect(await rejection(addDocumentFromUrl(team.admin, baseId, literal)), literal).toMatchObject({
        status: 422,
        message: expect.stringContaining("own address"),
      });
    }
    expect(site.requests.length).toBe(before); // nothing reached the server

    allowPrivate();
    const added = await addDocumentFromUrl(team.admin, baseId, url);
    expect(added.name).toBe("refunds.md");
    const page = await addDocumentFromUrl(team.admin, baseId, `${site.url}/travel#top`);
    expect(page.name).toBe("Travel & expenses.html");
    const docs = await listDocuments(team.member, baseId);
    expect(docs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: added.id,
          name: "refunds.md",
          mediaType: "text/markdown",
          size: MD.length,
          status: "queued",
          addedBy: "Ada Admin",
          sourceUrl: url,
        }),
        expect.objectContaining({ id: page.id, name: "Travel & expenses.html", mediaType: "text/html", status: "queued" }),
      ]),
    );
    const again = await rejection(addDocumentFromUrl(team.admin, baseId, url));
    expect(again.status).toBe(409);
    expect(again.message).toContain("already in this knowledge base, as refunds.md");
  });

  it("stores text the server sent in another encoding it named as UTF-8", async () => {
    allowPrivate();
    const file = await fetchDocumentFile(`${site.url}/latin1.txt`);
    expect(file.mediaType).toBe("text/plain");
    expect(new TextDecoder("utf-8", { fatal: true }).decode(file.bytes)).toBe("Caf\u00e9 cr\u00e8me");
  });

  it("takes the type from the URL's name when Content-Type says nothing useful", async () => {
    allowPrivate();
    const file = await fetchDocumentFile(`${site.url}/files/notes.txt`);
    expect(file).toMatchObject({ name: "notes.txt", mediaType: "text/plain" });
    expect(new TextDecoder().decode(file.bytes)).toBe("Plain notes.");
  });

  it("says what is wrong with bad URLs, refused addresses and unusable answers, with 4xx only", async () => {
    allowPrivate();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const cases: [string, number, RegExp][] = [
      ["not a url", 400, /not a valid URL/],
      ["ftp://example.com/file.pdf", 400, /Only http and https/],
      [`http://user:secret@127.0.0.1:${new URL(site.url).port}/travel`, 400, /user name or password/],
      ["http://169.254.169.254/latest/meta-data", 422, /cloud-metadata/],
      [`${site.url}/elsewhere`, 422, /redirected to another server/],
      [`${site.url}/missing`, 422, /answered with HTTP 404/],
      [`${site.url}/image.png`, 422, /image; text is not read from images/],
      [`${site.url}/declared-big`, 413, /larger than 50 MB/],
      [`http://127.0.0.1:${closedPort}/closed`, 422, /refused the connection/],
    ];
    for (const [url, status, message] of cases) {
      const err = await rejection(fetchDocumentFile(url));
      expect({ url, status: err.status }).toEqual({ url, status });
      expect(err.message, url).toMatch(message);
    }
    const streamed = await rejection(fetchDocumentFile(`${site.url}/streamed-big`, { maxBytes: 1_000 }));
    expect(streamed.status).toBe(413);
  });

  it("gives up on a server that does not answer within the time limit", async () => {
    allowPrivate();
    const silent = http.createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const err = await rejection(fetchDocumentFile(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow.pdf`, { timeoutMs: 300 }));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/did not answer within 0.3 s/);
  });

  it("a member who may not add documents gets 403 and the URL is never fetched", async () => {
    allowPrivate();
    const before = site.requests.length;
    expect((await rejection(addDocumentFromUrl(team.member, baseId, `${site.url}/files/notes.txt`))).status).toBe(403);
    expect(site.requests.length).toBe(before);
  });

  it(`a member may have at most ${URL_FETCH_LIMIT} URLs fetched a minute: past it, 429 and nothing fetched`, async () => {
    allowPrivate();
    const busy = await knowledgeTeam("Busy");
    const base = (await createKnowledgeBase(busy.admin, { name: "Busy", embedding: { providerId: busy.providerId, model: "m", dimensions: 3 } })).id;
    for (let i = 0; i < URL_FETCH_LIMIT; i++) expect((await rejection(addDocumentFromUrl(busy.admin, base, `${site.url}/missing`))).status).toBe(422);
    const before = site.requests.length;
    const limited = await rejection(addDocumentFromUrl(busy.admin, base, `${site.url}/docs/refunds.md`));
    expect(limited).toMatchObject({ status: 429, message: expect.stringContaining("too fast") });
    expect(site.requests.length).toBe(before);
    expect(await listDocuments(busy.admin, base)).toEqual([]);
  });
});
