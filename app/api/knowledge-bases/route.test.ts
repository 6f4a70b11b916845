// The knowledge routes called as the browser calls them (a real session cookie): an admin makes a
// team-wide base and adds documents by upload; a member sees the base and its documents but may not
// change them (403); a member of another team, a signed-out caller and forged ids get 404 / 401 and
// change nothing; an upload without a file is 400, one past the size limit 413, the same file twice 409;
// replace, re-index and delete do what they say; a document from a URL (JSON {url}) is fetched only
// for those who may add one and only from an allowed address.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined }),
}));

import { signUp } from "@/lib/auth/accounts";
import { db } from "@/lib/db/client";
import { MAX_DOCUMENT_BYTES } from "@/lib/knowledge/extract/types";
import { APP_BASE, signedInCookie } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { startScripted } from "@/test/support/test-upstreams";
import { GET as listBases, POST as createBase } from "./route";
import { DELETE as deleteBase, PATCH as renameBase } from "./[id]/route";
import { GET as listDocs, POST as upload } from "./[id]/documents/route";
import { DELETE as deleteDoc, PUT as replaceDoc } from "../knowledge-documents/[id]/route";
import { POST as reindex } from "../knowledge-documents/[id]/reindex/route";

const PASSWORD = "correct horse battery staple 42";
const FORGED = "c0000000000000000000000000";
let stop: () => Promise<void>;
const as = { admin: "", member: "", outsider: "", nobody: "" };
let providerId = "";

const signedIn = (email: string) => signedInCookie(email, PASSWORD);

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  const prisma = await db();
  const [admin, member, outsider] = await Promise.all(
    ["kb-admin", "kb-member", "kb-outsider"].map((n) => signUp({ name: n, email: `${n}@example.com`, password: PASSWORD }, new Headers())),
  );
  const team = await prisma.team.create({ data: { name: "Knowledge" } });
  const other = await prisma.team.create({ data: { name: "Other" } });
  await prisma.membership.create({ data: { teamId: team.id, userId: admin.userId, role: "admin" } });
  await prisma.membership.create({ data: { teamId: team.id, userId: member.userId, role: "member" } });
  await prisma.membership.create({ data: { teamId: other.id, userId: outsider.userId, role: "admin" } });
  providerId = (await prisma.provider.create({ data: { teamId: team.id, name: "Embeddings", kind: "openai_compatible", baseUrl: "http://127.0.0.1:9/v1" } }))
    .id;
  as.admin = await signedIn("kb-admin@example.com");
  as.member = await signedIn("kb-member@example.com");
  as.outsider = await signedIn("kb-outsider@example.com");
}, 180_000);
afterAll(() => stop?.());

type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

/** Calls a handler as `who` would (no cookie for "nobody"); returns the status and the JSON body. */
async function call(who: keyof typeof as, handler: Handler, init: { method: string; id?: string; json?: unknown; form?: FormData; query?: string }) {
  requestHeaders = new Headers({ ...(as[who] ? { cookie: as[who] } : {}), origin: APP_BASE });
  const body = init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  const headers = init.json === undefined ? undefined : { "content-type": "application/json" };
  const req = new Request(`${APP_BASE}/api/knowledge${init.query ?? ""}`, { method: init.method, headers, body });
  const res = await handler(req, { params: Promise.resolve({ id: init.id ?? "" }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const fileForm = (name: string, text: string | Uint8Array<ArrayBuffer>) => {
  const form = new FormData();
  form.set("file", new Blob([typeof text === "string" ? new TextEncoder().encode(text) : text]), name);
  return form;
};
const embedding = () => ({ name: "Handbook", embedding: { providerId, model: "text-embedding-3-small", dimensions: 1536 } });

describe("knowledge routes", () => {
  it("an admin makes a base and adds a document; a member sees both but may not change them; others get nothing", async () => {
    expect((await call("member", createBase, { method: "POST", json: embedding() })).status).toBe(403);
    expect((await call("nobody", createBase, { method: "POST", json: embedding() })).status).toBe(401);
    expect((await call("admin", createBase, { method: "POST", json: { name: "" } })).status).toBe(400);
    const created = await call("admin", createBase, { method: "POST", json: embedding() });
    expect(created.status).toBe(201);
    const baseId = created.body.id as string;

    const added = await call("admin", upload, { method: "POST", id: baseId, form: fileForm("refunds.md", "# Refunds\n\nWithin 30 days.\n") });
    expect(added.status).toBe(201);
    const docId = added.body.id as string;

    const listed = await call("member", listBases, { method: "GET" });
    expect((listed.body.bases as { id: string; documents: number }[]).find((b) => b.id === baseId)).toMatchObject({ documents: 1 });
    const docs = await call("member", listDocs, { method: "GET", id: baseId });
    expect(docs.body.documents).toEqual([expect.objectContaining({ id: docId, name: "refunds.md", mediaType: "text/markdown", status: "queued" })]);

    expect((await call("member", upload, { method: "POST", id: baseId, form: fileForm("mine.md", "# Mine") })).status).toBe(403);
    expect((await call("member", renameBase, { method: "PATCH", id: baseId, json: { name: "Mine" } })).status).toBe(403);
    expect((await call("member", deleteDoc, { method: "DELETE", id: docId })).status).toBe(403);
    for (const id of [baseId, FORGED, "not-an-id!"]) {
      expect((await call("outsider", listDocs, { method: "GET", id })).status, id).toBe(404);
      expect((await call("outsider", deleteBase, { method: "DELETE", id })).status, id).toBe(404);
    }
    expect((await call("outsider", listBases, { method: "GET" })).body.bases).toEqual([]);
    expect((await call("outsider", reindex, { method: "POST", id: docId })).status).toBe(404);
    expect((await call("nobody", listDocs, { method: "GET", id: baseId })).status).toBe(401);
    expect((await call("member", listDocs, { method: "GET", id: baseId })).body.documents).toHaveLength(1); // nothing changed
  });

  it("uploads: no file is 400, past the limit 413, the same file twice 409; replace, re-index and delete work", async () => {
    const baseId = (await call("admin", createBase, { method: "POST", json: { ...embedding(), name: "Uploads" } })).body.id as string;
    expect((await call("admin", upload, { method: "POST", id: baseId, form: new FormData() })).status).toBe(400);
    expect((await call("admin", upload, { method: "POST", id: baseId, json: { file: "not multipart" } })).status).toBe(400);
    expect((await call("admin", upload, { method: "POST", id: baseId, form: fileForm("big.txt", new Uint8Array(MAX_DOCUMENT_BYTES + 1)) })).status).toBe(413);

    const docId = (await call("admin", upload, { method: "POST", id: baseId, form: fileForm("a.txt", "first version") })).body.id as string;
    const again = await call("admin", upload, { method: "POST", id: baseId, form: fileForm("copy.txt", "first version") });
    expect(again.status).toBe(409);
    expect((again.body.error as { message: string }).message).toContain("already in this knowledge base, as a.txt");

    const replaced = await call("admin", replaceDoc, { method: "PUT", id: docId, form: fileForm("a.txt", "second version") });
    expect(replaced).toMatchObject({ status: 200, body: { version: 2 } });
    const prisma = await db();
    await prisma.knowledgeDocument.update({ where: { id: docId }, data: { status: "failed", error: "The embedding server was down." } });
    expect((await call("admin", reindex, { method: "POST", id: docId })).status).toBe(200);
    expect((await call("admin", listDocs, { method: "GET", id: baseId })).body.documents).toEqual([
      expect.objectContaining({ id: docId, version: 2, status: "queued", error: null }),
    ]);

    expect((await call("admin", deleteDoc, { method: "DELETE", id: docId })).status).toBe(200);
    expect((await call("admin", listDocs, { method: "GET", id: baseId })).body.documents).toEqual([]);
    expect((await call("admin", renameBase, { method: "PATCH", id: baseId, json: { name: "Renamed" } })).status).toBe(200);
    expect((await call("admin", deleteBase, { method: "DELETE", id: baseId })).status).toBe(200);
    expect((await call("admin", listDocs, { method: "GET", id: baseId })).status).toBe(404);
  });

  it("a document from a URL: JSON {url} on the same route; a bad URL is 400, a refused address 422, then 201", async () => {
    const site = await startScripted((_req, res) => void res.writeHead(200, { "content-type": "text/markdown" }).end("# Leave\n\n25 days a year.\n"));
    try {
      const baseId = (await call("admin", createBase, { method: "POST", json: { ...embedding(), name: "From the web" } })).body.id as string;
      const bad = await call("admin", upload, { method: "POST", id: baseId, json: { url: "no url" } });
      expect(bad.status).toBe(400);
      const refused = await call("admin", upload, { method: "POST", id: baseId, json: { url: `${site.url}/leave.md` } });
      expect(refused.status).toBe(422);
      expect((refused.body.error as { message: string }).message).toContain("PARLEY_ALLOW_PRIVATE_URLS=1");
      expect((await call("member", upload, { method: "POST", id: baseId, json: { url: `${site.url}/leave.md` } })).status).toBe(403);
      process.env.PARLEY_ALLOW_PRIVATE_URLS = "1";
      const added = await call("admin", upload, { method: "POST", id: baseId, json: { url: `${site.url}/leave.md` } });
      expect(added).toMatchObject({ status: 201, body: { name: "leave.md" } });
      expect((await call("member", listDocs, { method: "GET", id: baseId })).body.documents).toEqual([
        expect.objectContaining({ id: added.body.id, name: "leave.md", mediaType: "text/markdown", status: "queued" }),
      ]);
      expect(site.requests).toHaveLength(1); // the refused and the forbidden requests never left
    } finally {
      delete process.env.PARLEY_ALLOW_PRIVATE_URLS;
      await site.stop();
    }
  });
});
