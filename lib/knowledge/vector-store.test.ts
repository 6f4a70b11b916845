// Vector storage (vector-store.ts) on each database, with its real vector extension: PGlite as the app
// opens it (openDatabase loads pgvector's PGlite build), and PostgreSQL with pgvector when
// TEST_DATABASE_URL is set (.ci/run installs pgvector on the machine's server). Embeddings written into
// a vector column come back as nearest neighbours in cosine order, which differs from the order by
// Euclidean distance and by inner product on the same rows, so an operator mix-up fails; an HNSW index on
// `vector_cosine_ops` serves the same query with the same answer; rows outside `among` never come back.
import crypto from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { PrismaClient } from "../db/generated/client";
import { DATABASES, withAdmin, type TestDatabase } from "@/test/support/test-databases";
import {
  EmbeddingShapeError,
  VectorExtensionError,
  ensureVectorExtension,
  nearestByCosine,
  vectorLiteral,
  vectorType,
  writeEmbeddings,
  type VectorColumn,
} from "./vector-store";

const COL: VectorColumn = { table: "Passage", key: "id", column: "embedding", dimensions: 3 };
const QUERY = [1, 0, 0];

/** The rows: an id, the knowledge base it belongs to, and its embedding (none: not embedded yet). */
const ROWS: { id: string; base: string; embedding?: number[] }[] = [
  { id: "far-long", base: "kb1", embedding: [10, 1, 0] }, // nearest by cosine, farthest by Euclidean distance
  { id: "near-short", base: "kb1", embedding: [0.5, 0.4, 0] }, // nearest by Euclidean distance
  { id: "diagonal", base: "kb1", embedding: [1, 1, 1] }, // second by inner product
  { id: "opposite", base: "kb1", embedding: [-1, 0.2, 0] },
  { id: "orthogonal", base: "kb1", embedding: [0, 0, 2] },
  { id: "unembedded", base: "kb1" },
  { id: "other-base", base: "kb2", embedding: [1, 0, 0] }, // the query's own direction, in another base
];

function cosineDistance(a: readonly number[], b: readonly number[]): number {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  const norm = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return 1 - dot / (norm(a) * norm(b));
}

/** The embedded rows of `bases` in cosine order, worked out here: what the database must answer. */
function expectedOrder(bases: string[]): { key: string; distance: number }[] {
  return ROWS.filter((r) => r.embedding && bases.includes(r.base))
    .map((r) => ({ key: r.id, distance: cosineDistance(r.embedding!, QUERY) }))
    .sort((a, b) => a.distance - b.distance);
}

function expectNeighbours(actual: { key: string; distance: number }[], expected: { key: string; distance: number }[]): void {
  expect(actual.map((n) => n.key)).toEqual(expected.map((n) => n.key));
  actual.forEach((n, i) => expect(n.distance).toBeCloseTo(expected[i].distance, 5)); // pgvector stores float4
}

describe("vector literals", () => {
  it("are pgvector's text form, checked against the column", () => {
    expect(vectorType(1536)).toBe("vector(1536)");
    expect(vectorLiteral([0.5, -2, 3e-7], 3)).toBe("[0.5,-2,3e-7]");
    expect(() => vectorLiteral([1, 2], 3)).toThrow(EmbeddingShapeError);
    expect(() => vectorLiteral([1, Number.NaN, 3], 3)).toThrow(EmbeddingShapeError);
    expect(() => vectorLiteral([1, Number.POSITIVE_INFINITY, 3], 3)).toThrow(EmbeddingShapeError);
    expect(() => vectorType(0)).toThrow(RangeError);
    expect(() => vectorType(16_001)).toThrow(RangeError);
  });
});

describe.each(DATABASES)("vector storage on $name", (driver) => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await driver.fresh();
    db = await test.open();
  }, 120_000);
  afterAll(() => test?.cleanup());

  it("creates pgvector's extension once and says its version", async () => {
    const version = await ensureVectorExtension(db.prisma, db.kind);
    expect(version).toMatch(/^0\.8\.\d+$/);
    expect(await ensureVectorExtension(db.prisma, db.kind)).toBe(version);
    const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'`);
    expect(row.n).toBe(1);
  });

  it("stores embeddings in a vector column and returns the nearest rows by cosine distance, in order", async () => {
    await ensureVectorExtension(db.prisma, db.kind);
    await db.prisma.$executeRawUnsafe(`CREATE TABLE "Passage" ("id" text PRIMARY KEY, "base" text NOT NULL, "embedding" ${vectorType(3)})`);
    for (const r of ROWS) await db.prisma.$executeRawUnsafe(`INSERT INTO "Passage" ("id", "base") VALUES ($1, $2)`, r.id, r.base);
    const embedded = ROWS.filter((r) => r.embedding).map((r) => ({ key: r.id, embedding: r.embedding! }));
    expect(await writeEmbeddings(db.prisma, COL, [...embedded, { key: "no-such-row", embedding: [1, 2, 3] }])).toBe(embedded.length);

    const kb1 = expectedOrder(["kb1"]);
    // The cases are chosen so that cosine order is neither Euclidean order nor inner-product order.
    expect(kb1.map((n) => n.key)).toEqual(["far-long", "near-short", "diagonal", "orthogonal", "opposite"]);
    expectNeighbours(await nearestByCosine(db.prisma, COL, QUERY, { limit: 10, among: { column: "base", values: ["kb1"] } }), kb1);
    expectNeighbours(await nearestByCosine(db.prisma, COL, QUERY, { limit: 3, among: { column: "base", values: ["kb1"] } }), kb1.slice(0, 3));
    // Without the filter the other base's row, which points the query's way, comes first; with an empty list, nothing.
    expectNeighbours(await nearestByCosine(db.prisma, COL, QUERY, { limit: 10 }), expectedOrder(["kb1", "kb2"]));
    expect((await nearestByCosine(db.prisma, COL, QUERY, { limit: 10 }))[0]).toMatchObject({ key: "other-base" });
    expect(await nearestByCosine(db.prisma, COL, QUERY, { limit: 10, among: { column: "base", values: [] } })).toEqual([]);
    // Scaling the query changes no cosine distance.
    expectNeighbours(await nearestByCosine(db.prisma, COL, [7, 0, 0], { limit: 10, among: { column: "base", values: ["kb1"] } }), kb1);
  });

  it("answers the same through an HNSW index on vector_cosine_ops", async () => {
    // The rows written anew first: the embeddings came by UPDATE, and PostgreSQL keeps an index built over
    // rows updated in place from every transaction older than the index (pg_index.indcheckxmin), so the
    // plan below would depend on whether another test's transaction happens to be open on the server.
    for (const sql of [
      `CREATE TABLE "PassageRows" AS SELECT * FROM "Passage"`,
      `TRUNCATE "Passage"`,
      `INSERT INTO "Passage" SELECT * FROM "PassageRows"`,
      `DROP TABLE "PassageRows"`,
    ])
      await db.prisma.$executeRawUnsafe(sql);
    await db.prisma.$executeRawUnsafe(`CREATE INDEX "Passage_embedding_idx" ON "Passage" USING hnsw ("embedding" vector_cosine_ops)`);
    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL enable_seqscan = off`);
      const plan = await tx.$queryRawUnsafe<Record<string, string>[]>(
        `EXPLAIN SELECT "id" FROM "Passage" WHERE "embedding" IS NOT NULL ORDER BY "embedding" <=> '[1,0,0]'::vector(3) LIMIT 3`,
      );
      expect(plan.map((r) => Object.values(r)[0]).join("\n")).toContain("Passage_embedding_idx");
      expectNeighbours(await nearestByCosine(tx, COL, QUERY, { limit: 3 }), expectedOrder(["kb1", "kb2"]).slice(0, 3));
    });
  });

  it("refuses an embedding of another length, a non-number and a query of zeros, writing nothing", async () => {
    const before = await nearestByCosine(db.prisma, COL, QUERY, { limit: 10 });
    await expect(writeEmbeddings(db.prisma, COL, [{ key: "unembedded", embedding: [1, 0] }])).rejects.toThrow(EmbeddingShapeError);
    await expect(writeEmbeddings(db.prisma, COL, [{ key: "unembedded", embedding: [1, Number.NaN, 0] }])).rejects.toThrow(EmbeddingShapeError);
    await expect(nearestByCosine(db.prisma, COL, [0, 0, 0], { limit: 3 })).rejects.toThrow(EmbeddingShapeError);
    expect(await nearestByCosine(db.prisma, COL, QUERY, { limit: 10 })).toEqual(before);
  });
});

describe("without pgvector", () => {
  it("on a PGlite opened without its vector extension, says so", async () => {
    const pglite = new PGlite();
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    try {
      await expect(ensureVectorExtension(prisma, "pglite")).rejects.toThrow(VectorExtensionError);
    } finally {
      await prisma.$disconnect();
      await pglite.close();
    }
  });

  it.skipIf(!DATABASES.some((d) => d.kind === "postgresql"))("on PostgreSQL, a role that may not create it is told to have a superuser do it", async () => {
    const postgres = DATABASES.find((d) => d.kind === "postgresql")!;
    const test = await postgres.fresh();
    const role = `parley_t_${crypto.randomBytes(6).toString("hex")}`;
    await withAdmin((c) => c.query(`CREATE ROLE "${role}" LOGIN`));
    try {
      const url = new URL(test.url!);
      url.username = role;
      const { openDatabase } = await import("../db/client");
      const db = await openDatabase({ url: url.toString() });
      try {
        await expect(ensureVectorExtension(db.prisma, db.kind)).rejects.toThrow(/superuser/);
      } finally {
        await db.close();
      }
    } finally {
      await test.cleanup();
      await withAdmin((c) => c.query(`DROP ROLE IF EXISTS "${role}"`));
    }
  });

  it.skipIf(!DATABASES.some((d) => d.kind === "postgresql"))("on PostgreSQL, processes that start at once on a new database all find it created", async () => {
    const postgres = DATABASES.find((d) => d.kind === "postgresql")!;
    const { openDatabase } = await import("../db/client");
    for (let round = 0; round < 2; round++) {
      const test = await postgres.fresh(); // no extension yet
      const dbs = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url: test.url! })));
      try {
        await Promise.all(dbs.map((d) => d.prisma.$queryRawUnsafe("SELECT 1"))); // connected, so they race in CREATE EXTENSION
        const versions = await Promise.all(dbs.map((d) => ensureVectorExtension(d.prisma, d.kind)));
        expect(new Set(versions).size).toBe(1);
      } finally {
        await Promise.all(dbs.map((d) => d.close()));
        await test.cleanup();
      }
    }
  });
});
