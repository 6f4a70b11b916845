// Scenario "indexing": does indexing a large document slow the chats beside it? On the server under
// test, a burst of --indexing-chats paced chats (a model's pace) runs twice: alone, then just after a
// --indexing-pages PDF (made here with pdf-lib) was uploaded to a knowledge base, so that the server's
// own indexer (in the server process, lib/startup.ts) extracts, chunks, embeds and stores it meanwhile
// (after one unmeasured burst, so that both start from the same warm server).
// The base is created and the file uploaded through the HTTP routes with the signed-in admin's session;
// its embedding model is the instance provider's, i.e. aimock's /v1/embeddings (1536 dimensions). The
// two bursts get the same generous deadline (streams are only cut client-side, and their turns stopped,
// past it), so "behind" (total > the paced direct p50 by --behind-pct) is what tells them apart.
import { performance } from "node:perf_hooks";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { request } from "../harness/http";
import { log, sleep } from "../harness/lifecycle";
import { authHeaders, createChats, parleyStream, stopTurn, type Server } from "../harness/parley";
import { PACED } from "../harness/upstream";
import type { Ctx, IndexingFigures, Session } from "./context";
import { burst, summarize, type Summary } from "./stats";

/** The instance provider seeded from OPENAI_BASE_URL (lib/providers/seed-env.ts): aimock. */
const INSTANCE_PROVIDER_ID = "instance-env";
const EMBEDDING = { providerId: INSTANCE_PROVIDER_ID, model: "text-embedding-3-small", dimensions: 1536 };
/** The bursts' deadline, in paced direct p50 totals: late enough that a slow stream is measured, not cut. */
const DEADLINE_FACTOR = 4;
/** How long indexing may take before the scenario gives up waiting for it. */
const INDEX_TIMEOUT_MS = 10 * 60_000;

const WORDS = (
  "shipment pallet carrier customs invoice warehouse dock route driver parcel label manifest tariff freight container " +
  "delivery schedule inventory forklift aisle rack temperature seal inspection clearance broker consignee origin " +
  "destination transit hub depot trailer axle weight volume hazard permit insurance claim damage audit ledger"
).split(" ");

/** A text PDF of `pages` pages of manual-like lines (about 3,000 characters a page), different on every page. */
export async function manualPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Operations manual, section ${p}`, { x: 50, y: 800, size: 14, font });
    for (let line = 0; line < 40; line++) {
      const words = Array.from({ length: 12 }, () => WORDS[next() % WORDS.length]);
      page.drawText(`${words.join(" ")} ${p}.${line}.`, { x: 50, y: 770 - line * 18, size: 10, font });
    }
  }
  return pdf.save();
}

async function createBase(server: Server): Promise<string> {
  const res = await request("POST", `${server.origin}/api/knowledge-bases`, {
    headers: authHeaders(server),
    body: { name: `Bench manuals ${Date.now()}`, embedding: EMBEDDING },
  });
  if (res.status !== 201) throw new Error(`POST /api/knowledge-bases: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return (JSON.parse(res.text) as { id: string }).id;
}

async function upload(server: Server, baseId: string, name: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
  const res = await fetch(`${server.origin}/api/knowledge-bases/${baseId}/documents`, { method: "POST", headers: authHeaders(server), body: form });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload: HTTP ${res.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}

type DocumentRow = { id: string; status: string; error: string | null; pages: number | null };

async function documentOf(server: Server, baseId: string, id: string): Promise<DocumentRow | undefined> {
  const res = await request("GET", `${server.origin}/api/knowledge-bases/${baseId}/documents`, { headers: authHeaders(server), timeoutMs: 60_000 });
  if (res.status !== 200) throw new Error(`GET documents: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  return (JSON.parse(res.text) as { documents: DocumentRow[] }).documents.find((d) => d.id === id);
}

export async function indexingScenario(ctx: Ctx, s: Session): Promise<IndexingFigures> {
  const { o, up, direct } = ctx;
  const { server, kind } = s;
  const n = o.indexingChats;
  const deadline = direct.paced.reference * DEADLINE_FACTOR;
  const pacedBurst = async (tag: string): Promise<{ summary: Summary; ms: number }> => {
    const ids = await createChats(server, n);
    await sleep(500);
    const t = performance.now();
    const { results } = await burst(n, deadline, (i, opts) => parleyStream(server, o.acceptEncoding, ids[i], `${kind} ${PACED} ${tag}-${i}`, opts), {
      afterCut: () => Promise.all(ids.map((id) => stopTurn(server, id))),
    });
    return { summary: summarize(results, direct.paced.reference, up.pacedChars, o.chunkChars, o.behindPct), ms: performance.now() - t };
  };

  log(`${kind}: making a ${o.indexingPages}-page PDF`);
  const pdf = await manualPdf(o.indexingPages);
  const baseId = await createBase(server);
  // The first burst of this size after the server's warm-up pays for more than the later ones (its
  // TTFT was 2-4x theirs): one unmeasured burst first, so that "alone" and "beside" start alike.
  log(`${kind}: ${n} paced chats to warm up`);
  await pacedBurst("warmup");
  log(`${kind}: ${n} paced chats alone`);
  const alone = await pacedBurst("alone");

  log(`${kind}: uploading the PDF (${(pdf.byteLength / 1024 / 1024).toFixed(1)} MB), then ${n} paced chats beside its indexing`);
  const docId = await upload(server, baseId, `manual-${o.indexingPages}p.pdf`, pdf);
  const uploaded = performance.now();
  let doneAt = NaN;
  let last: DocumentRow | undefined;
  // Watch the document from the side (4 reads a second) while the burst runs, and after it until it is done.
  let watching = true;
  const watch = (async () => {
    while (watching && performance.now() - uploaded < INDEX_TIMEOUT_MS) {
      last = await documentOf(server, baseId, docId);
      if (last && (last.status === "ready" || last.status === "failed")) {
        doneAt = performance.now();
        return;
      }
      await sleep(250);
    }
  })();
  const burstStart = performance.now();
  const beside = await pacedBurst("beside");
  const burstEnd = burstStart + beside.ms;
  await watch;
  watching = false;
  const indexMs = last?.status === "ready" ? doneAt - uploaded : NaN;
  log(`${kind}: the PDF is ${last?.status ?? "unknown"}${Number.isFinite(indexMs) ? ` after ${(indexMs / 1000).toFixed(1)} s` : ""}`);
  const passages = await passagesOf(s, docId);
  return {
    chats: n,
    pages: o.indexingPages,
    pdfBytes: pdf.byteLength,
    alone: alone.summary,
    beside: beside.summary,
    indexMs,
    passages,
    burstMs: beside.ms,
    overlapMs: Math.max(0, Math.min(burstEnd, Number.isFinite(doneAt) ? doneAt : burstEnd) - burstStart),
    status: last?.status ?? "unknown",
    error: last?.error ?? undefined,
  };
}

/** The document's passages, read from PostgreSQL; NaN on PGlite (its database belongs to the server process). */
async function passagesOf(s: Session, documentId: string): Promise<number> {
  if (!s.pg) return NaN;
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: s.pg.url });
  await client.connect();
  try {
    const r = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "KnowledgeChunk" WHERE "documentId" = $1`, [documentId]);
    return r.rows[0]?.n ?? NaN;
  } finally {
    await client.end();
  }
}
