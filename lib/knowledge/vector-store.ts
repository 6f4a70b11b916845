// Vector storage for knowledge bases, on both databases: pgvector's `vector` extension (PostgreSQL needs
// pgvector installed on its server; PGlite loads its build of it at open, lib/db/pglite-store.ts), the
// column type of an embedding, writing embeddings into a table's vector column, and the nearest rows to
// a query embedding by cosine distance (`<=>`). It owns no table: the knowledge tables (a migration of
// their own) name theirs with a VectorColumn, and it reads and writes them through Prisma's raw queries
// (Prisma cannot read or write an `Unsupported("vector(n)")` field), so it works in a transaction too.
import type { DatabaseKind } from "../config";
import type { PrismaClient } from "../db/generated/client";

/** What this module runs its SQL through: the Prisma client, or a transaction's client. */
export type VectorSql = Pick<PrismaClient, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** A table's vector column: the table, its text key column, the vector column and its dimensions. */
export type VectorColumn = { table: string; key: string; column: string; dimensions: number };

/** pgvector's most dimensions for a `vector` column. */
export const MAX_DIMENSIONS = 16_000;
/** pgvector's most dimensions for an HNSW or IVFFlat index on a `vector` column (halfvec: 4,000). */
export const MAX_INDEXED_DIMENSIONS = 2_000;

/** The database has no pgvector to create, or may not create it: knowledge bases cannot work there. */
export class VectorExtensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VectorExtensionError";
  }
}

/** An embedding that does not fit its column: another length than the column's, or not finite numbers. */
export class EmbeddingShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddingShapeError";
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function quoted(name: string): string {
  if (!IDENTIFIER.test(name)) throw new RangeError(`Not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw new RangeError(`A vector column has from 1 to ${MAX_DIMENSIONS} dimensions, not ${dimensions}.`);
  }
}

/** The column type of embeddings with `dimensions` numbers: `vector(1536)`. */
export function vectorType(dimensions: number): string {
  checkDimensions(dimensions);
  return `vector(${dimensions})`;
}

/** pgvector's text form of an embedding (`[0.1,-2,3e-7]`), checked against the column's dimensions. */
export function vectorLiteral(embedding: readonly number[], dimensions: number): string {
  checkDimensions(dimensions);
  if (embedding.length !== dimensions) {
    throw new EmbeddingShapeError(`The embedding has ${embedding.length} numbers; the column holds ${dimensions}.`);
  }
  for (const x of embedding) {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new EmbeddingShapeError(`An embedding holds only finite numbers, not ${String(x)}.`);
  }
  return `[${embedding.join(",")}]`;
}

type ExtensionRow = { installed: string | null; available: string | null };

/**
 * Creates pgvector's `vector` extension in the database when it is not there yet, and returns its
 * version. A PostgreSQL server without pgvector, or a role that may not create it (pgvector is not a
 * trusted extension: a superuser creates it once), is refused with what to do.
 */
export async function ensureVectorExtension(sql: VectorSql, kind: DatabaseKind): Promise<string> {
  const [row] = await sql.$queryRawUnsafe<ExtensionRow[]>(
    `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS installed,
            (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS available`,
  );
  if (row?.installed) return row.installed;
  if (!row?.available) {
    throw new VectorExtensionError(
      kind === "postgresql"
        ? "This PostgreSQL server has no pgvector (the `vector` extension), which knowledge bases need. Install it on the server " +
            '(docs/operations.md, "pgvector"), then start Parley again.'
        : "The embedded database was opened without its vector extension (lib/db/pglite-store.ts loads it).",
    );
  }
  try {
    await sql.$executeRawUnsafe(`CREATE EXTENSION IF NOT EXISTS vector`);
  } catch (err) {
    // Two processes starting at once on a new database may both create it: the loser's IF NOT EXISTS
    // can still fail on the catalog's unique key, and the extension is there all the same.
    const [now] = await sql.$queryRawUnsafe<ExtensionRow[]>(`SELECT extversion AS installed, NULL AS available FROM pg_extension WHERE extname = 'vector'`);
    if (now?.installed) return now.installed;
    throw new VectorExtensionError(
      `pgvector is installed but the extension could not be created in this database (${(err as Error).message}). ` +
        `pgvector is not a trusted extension: have a superuser run CREATE EXTENSION vector in Parley's database once.`,
    );
  }
  const [created] = await sql.$queryRawUnsafe<ExtensionRow[]>(`SELECT extversion AS installed, NULL AS available FROM pg_extension WHERE extname = 'vector'`);
  return created?.installed ?? row.available;
}

/**
 * Stores each row's embedding in `col` (the rows exist already: their keys are `key`). One statement for
 * the lot. Returns how many rows it updated: fewer than given when a key names no row.
 */
export async function writeEmbeddings(sql: VectorSql, col: VectorColumn, rows: readonly { key: string; embedding: readonly number[] }[]): Promise<number> {
  if (rows.length === 0) return 0;
  const keys = rows.map((r) => r.key);
  const vectors = rows.map((r) => vectorLiteral(r.embedding, col.dimensions));
  const t = quoted(col.table);
  return sql.$executeRawUnsafe(
    `UPDATE ${t} SET ${quoted(col.column)} = v.e::${vectorType(col.dimensions)}
       FROM unnest($1::text[], $2::text[]) AS v(k, e)
      WHERE ${t}.${quoted(col.key)} = v.k`,
    keys,
    vectors,
  );
}

export type Neighbour = { key: string; distance: number };

/**
 * The `limit` rows nearest to `query` by cosine distance (1 − cosine similarity: 0 same direction, 2
 * opposite), nearest first, ties by key. Rows without an embedding are left out; with `among`, so are rows
 * whose `among.column` is not one of `among.values` (a knowledge base's chunks, or the bases a member
 * may see). A query of zeros has no direction and is refused.
 */
export async function nearestByCosine(
  sql: VectorSql,
  col: VectorColumn,
  query: readonly number[],
  opts: { limit: number; among?: { column: string; values: readonly string[] } },
): Promise<Neighbour[]> {
  const literal = vectorLiteral(query, col.dimensions);
  if (query.every((x) => x === 0)) throw new EmbeddingShapeError("A query embedding of zeros has no direction to compare.");
  if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new RangeError(`limit is a positive integer, not ${opts.limit}.`);
  const c = quoted(col.column);
  const params: unknown[] = [literal];
  let among = "";
  if (opts.among) {
    if (opts.among.values.length === 0) return [];
    params.push([...opts.among.values]);
    among = ` AND ${quoted(opts.among.column)} = ANY($2::text[])`;
  }
  // ORDER BY the operator itself (not its alias) so an HNSW or IVFFlat index on `vector_cosine_ops` serves it.
  const rows = await sql.$queryRawUnsafe<{ key: string; distance: number }[]>(
    `SELECT ${quoted(col.key)} AS key, ${c} <=> $1::${vectorType(col.dimensions)} AS distance
       FROM ${quoted(col.table)}
      WHERE ${c} IS NOT NULL${among}
      ORDER BY ${c} <=> $1::${vectorType(col.dimensions)}, ${quoted(col.key)}
      LIMIT ${opts.limit}`,
    ...params,
  );
  return rows.map((r) => ({ key: r.key, distance: Number(r.distance) }));
}
