// The proof that prisma/migrations and prisma/schema.prisma agree, on both drivers. After migrating an
// empty database:
// - every model of the generated client takes a row with every scalar field set to a non-default value
//   (nullable ones non-null) and gives it back unchanged through the generated client;
// - a row inserted below Prisma with only the columns that have no database default reads back with the
//   schema's defaults, and nulls in every optional field;
// - every column, enum, primary key, unique constraint, index and foreign key the schema declares exists
//   with Prisma's name and shape, and the database has nothing the schema lacks.
// The models and fields come from the generated client's runtime data model, so a model or field added to
// schema.prisma without a migration fails here (and one added without `npm run db:generate` too).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client";
import * as $Enums from "./generated/enums";
import { Prisma, type PrismaClient } from "./generated/client";
import { migratePGlite, migratePostgres, readMigrations } from "./migrator";
import { DRIVERS, rawQuery, type TestDatabase } from "../../test/support/test-databases";

// ------------------------------------------------------------------ the generated client's data model

type RuntimeField = { name: string; kind: "scalar" | "enum" | "object"; type: string; relationName?: string };
type RuntimeModel = { fields: RuntimeField[]; dbName: string | null };
type RuntimeDataModel = { models: { [name: string]: RuntimeModel } };

function runtimeDataModel(prisma: PrismaClient): RuntimeDataModel {
  const rdm = (prisma as unknown as { _runtimeDataModel?: RuntimeDataModel })._runtimeDataModel;
  if (!rdm?.models) throw new Error("The generated Prisma client has no runtime data model (did Prisma change its internals?)");
  return rdm;
}

// ------------------------------------------------------------------ schema.prisma attributes
// The runtime data model lacks optionality, defaults, relation fields and indexes: read them from
// schema.prisma (and check below that it describes the same models and fields as the generated client).

type SchemaField = {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  column: string;
  id: boolean;
  unique: boolean;
  updatedAt: boolean;
  default?: string;
  relation?: { fields: string[]; references: string[]; onDelete?: string; onUpdate?: string };
};
type SchemaModel = {
  name: string;
  table: string;
  fields: SchemaField[];
  uniques: string[][];
  indexes: string[][];
  id?: string[];
};
type Schema = { models: Map<string, SchemaModel>; enums: Map<string, string[]> };

function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && line[i - 1] !== "\\") quoted = !quoted;
    if (!quoted && line[i] === "/" && line[i + 1] === "/") return line.slice(0, i);
  }
  return line;
}

/** The argument text of `@name(...)` in an attribute string, with balanced parentheses. */
function attrArgs(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\(`);
  const m = re.exec(attrs);
  if (!m) return undefined;
  let depth = 0;
  const start = m.index + m[0].length;
  for (let i = start - 1; i < attrs.length; i++) {
    if (attrs[i] === "(") depth++;
    if (attrs[i] === ")" && --depth === 0) return attrs.slice(start, i);
  }
  throw new Error(`Unbalanced ${name}( in ${attrs}`);
}

const list = (text: string | undefined, key?: string): string[] | undefined => {
  if (text === undefined) return undefined;
  const m = key ? new RegExp(`${key}\\s*:\\s*\\[([^\\]]*)\\]`).exec(text) : /^\s*\[([^\]]*)\]/.exec(text);
  return m
    ? m[1]
        .split(",")
        .map((s) => s.trim().replace(/\(.*$/, ""))
        .filter(Boolean)
    : undefined;
};
const named = (text: string | undefined, key: string) => (text ? new RegExp(`${key}\\s*:\\s*(\\w+)`).exec(text)?.[1] : undefined);
const mapped = (attrs: string, name: string) => {
  const a = attrArgs(attrs, name);
  return a ? /"([^"]*)"/.exec(a)?.[1] : undefined;
};

function parseSchema(text: string): Schema {
  const models = new Map<string, SchemaModel>();
  const enums = new Map<string, string[]>();
  let block: { kind: "model" | "enum" | "other"; name: string; lines: string[] } | undefined;
  for (const raw of text.split("\n")) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    if (!block) {
      const m = /^(model|enum|generator|datasource|type|view)\s+(\w+)\s*\{$/.exec(line);
      if (!m) throw new Error(`schema.prisma: unexpected line ${line}`);
      block = { kind: m[1] === "model" || m[1] === "enum" ? (m[1] as "model" | "enum") : "other", name: m[2], lines: [] };
      continue;
    }
    if (line !== "}") {
      block.lines.push(line);
      continue;
    }
    if (block.kind === "enum") {
      enums.set(
        block.name,
        block.lines.filter((l) => !l.startsWith("@@")).map((l) => mapped(l, "@map") ?? l.split(/\s+/)[0]),
      );
    } else if (block.kind === "model") {
      const model: SchemaModel = { name: block.name, table: block.name, fields: [], uniques: [], indexes: [] };
      for (const l of block.lines) {
        if (l.startsWith("@@")) {
          if (l.startsWith("@@map(")) model.table = mapped(l, "@@map")!;
          else if (l.startsWith("@@unique(")) model.uniques.push(list(attrArgs(l, "@@unique"))!);
          else if (l.startsWith("@@index(")) model.indexes.push(list(attrArgs(l, "@@index"))!);
          else if (l.startsWith("@@id(")) model.id = list(attrArgs(l, "@@id"));
          else throw new Error(`schema.prisma: this test does not know ${l}; teach it`);
          continue;
        }
        const m = /^(\w+)\s+(\w+)(\?|\[\])?\s*(.*)$/.exec(l);
        if (!m) throw new Error(`schema.prisma: cannot read field ${l}`);
        const attrs = m[4];
        const rel = attrArgs(attrs, "@relation");
        model.fields.push({
          name: m[1],
          type: m[2],
          optional: m[3] === "?",
          list: m[3] === "[]",
          column: mapped(attrs, "@map") ?? m[1],
          id: /(^|\s)@id\b/.test(attrs),
          unique: /(^|\s)@unique\b/.test(attrs),
          updatedAt: /(^|\s)@updatedAt\b/.test(attrs),
          default: attrArgs(attrs, "@default"),
          relation:
            rel && list(rel, "fields")
              ? {
                  fields: list(rel, "fields")!,
                  references: list(rel, "references")!,
                  onDelete: named(rel, "onDelete"),
                  onUpdate: named(rel, "onUpdate"),
                }
              : undefined,
        });
      }
      models.set(model.name, model);
    }
    block = undefined;
  }
  return { models, enums };
}

const schema = parseSchema(fs.readFileSync(path.resolve(__dirname, "../../prisma/schema.prisma"), "utf8"));
const migrations = readMigrations(path.resolve(__dirname, "../../prisma/migrations"));

// ------------------------------------------------------------------ values

const CLIENT_DEFAULTS = /^(cuid|uuid|nanoid|ulid)\(.*\)$/;
const enumValues = (type: string): string[] => {
  const e = ($Enums as { [name: string]: unknown })[type];
  if (!e || typeof e !== "object") throw new Error(`No enum ${type} in the generated client`);
  return Object.values(e as { [k: string]: string });
};
const sf = (model: string, field: string): SchemaField => {
  const f = schema.models.get(model)?.fields.find((x) => x.name === field);
  if (!f) throw new Error(`schema.prisma has no ${model}.${field}, but the generated client has (run npm run db:generate)`);
  return f;
};

let counter = 0;
/** A value for a field that is not its default (and not null). */
function valueFor(model: string, field: RuntimeField, tag: string): unknown {
  const n = ++counter;
  const def = sf(model, field.name).default;
  if (field.kind === "enum") {
    const values = enumValues(field.type);
    const choices = values.filter((v) => v !== def);
    return choices[n % choices.length];
  }
  switch (field.type) {
    case "String":
      return `${tag}-${model}.${field.name}-${n}-ünïcødé ✓ 'quote' "dq"`;
    case "Int": {
      const v = 1000 + n * 37;
      return String(v) === def ? v + 1 : v;
    }
    case "BigInt":
      return BigInt(Number.MAX_SAFE_INTEGER) + BigInt(n);
    case "Float":
      return n + 0.25;
    case "Decimal":
      return new Prisma.Decimal(`${n}.125`);
    case "Boolean":
      return def === undefined ? n % 2 === 0 : def !== "true";
    case "DateTime":
      // Millisecond precision, each value distinct and far from now().
      return new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 0) + n * 1_001_017 + 123);
    case "Json":
      return { tag, model, field: field.name, n, nested: { pi: 3.5, list: [1, "two", true, null, { deep: [] }], empty: {} }, text: "ü ✓" };
    case "Bytes":
      return new Uint8Array([0, 1, 2, 255, n % 256]);
    default:
      throw new Error(`The schema round-trip test cannot make a value of type ${field.type} (${model}.${field.name}); teach it`);
  }
}

/** The models a model points to through any foreign key, required or optional (transitively). */
function allParents(name: string, seen = new Set<string>()): Set<string> {
  for (const f of schema.models.get(name)!.fields) {
    if (f.relation && f.type !== name && !seen.has(f.type)) {
      seen.add(f.type);
      allParents(f.type, seen);
    }
  }
  return seen;
}

/**
 * An optional foreign key that closes a cycle (Team.defaultModel: a Model needs its Provider, which
 * points to a Team; Provider.team, optional for the instance provider, closes the same cycle): its row
 * is written first without it and the key is set once the parent exists. So is an optional key to the
 * same model (Message.parent): the row becomes its own parent.
 */
const isDeferred = (model: string, f: SchemaField) => Boolean(f.relation && f.optional && (f.type === model || allParents(f.type).has(model)));

/** Models in an order where each comes after the models its foreign keys point to (deferred ones aside). */
function parentFirstOrder(names: string[]): string[] {
  const out: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, trail: string[]) => {
    if (state.get(name) === "done") return;
    if (state.get(name) === "visiting") throw new Error(`Foreign-key cycle ${[...trail, name].join(" -> ")}; teach the test to break it`);
    state.set(name, "visiting");
    for (const f of schema.models.get(name)!.fields) {
      if (f.relation && f.type !== name && !isDeferred(name, f)) visit(f.type, [...trail, name]);
    }
    state.set(name, "done");
    out.push(name);
  };
  for (const n of names) visit(n, []);
  return out;
}

const delegate = (prisma: PrismaClient, model: string) =>
  (prisma as unknown as { [k: string]: { create(a: unknown): Promise<unknown>; findMany(a?: unknown): Promise<unknown[]> } })[
    model[0].toLowerCase() + model.slice(1)
  ];

/** A SQL literal-free parameter for a value, as the raw drivers take it (timestamps in UTC, no zone). */
function sqlParam(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace("T", " ").replace("Z", "");
  if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) return JSON.stringify(v);
  return v;
}

function expectedDefault(model: string, f: SchemaField, field: RuntimeField): unknown {
  const d = f.default!;
  if (d === "now()") return expect.any(Date);
  if (d === "autoincrement()") return expect.any(Number);
  if (d === "true" || d === "false") return d === "true";
  if (/^-?\d+$/.test(d)) return Number(d);
  if (/^".*"$/.test(d)) return JSON.parse(d);
  if (field.kind === "enum" && enumValues(field.type).includes(d)) return d;
  throw new Error(`The schema round-trip test does not know the default ${d} of ${model}.${f.name}; teach it`);
}

// ------------------------------------------------------------------ the tests

for (const driver of DRIVERS) {
  describe.skipIf(driver.skip)(`schema.prisma and the migrations agree, on ${driver.name}`, () => {
    let t: TestDatabase;
    let db: Database;
    let rdm: RuntimeDataModel;
    let modelNames: string[];

    beforeAll(async () => {
      t = await driver.fresh();
      db = await t.open();
      if (db.pglite) await migratePGlite(db.pglite, migrations);
      else await migratePostgres(db.pool!, migrations);
      rdm = runtimeDataModel(db.prisma);
      modelNames = Object.keys(rdm.models);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    const scalars = (model: string) => rdm.models[model].fields.filter((f) => f.kind !== "object");
    const tableOf = (model: string) => rdm.models[model].dbName ?? model;

    it("the generated client and schema.prisma describe the same models and fields", () => {
      expect(modelNames.length).toBeGreaterThan(0);
      expect(modelNames.sort()).toEqual(Object.values(Prisma.ModelName).sort());
      expect(modelNames.sort()).toEqual([...schema.models.keys()].sort());
      for (const model of modelNames) {
        const enumKey = `${model}ScalarFieldEnum` as keyof typeof Prisma;
        expect(
          scalars(model).map((f) => f.name),
          model,
        ).toEqual(Object.values(Prisma[enumKey] as object));
        expect(
          rdm.models[model].fields.map((f) => [f.name, f.type]),
          model,
        ).toEqual(schema.models.get(model)!.fields.map((f) => [f.name, f.type]));
        expect(tableOf(model)).toBe(schema.models.get(model)!.table);
      }
      for (const [name, values] of schema.enums) expect(enumValues(name), name).toEqual(values);
    });

    it("every model stores and returns every scalar field, each set to a non-default value", async () => {
      const rows = new Map<string, { [field: string]: unknown }>();
      const deferred: { model: string; rel: SchemaField }[] = [];
      for (const model of parentFirstOrder(modelNames)) {
        const sm = schema.models.get(model)!;
        const data: { [field: string]: unknown } = {};
        for (const f of scalars(model)) data[f.name] = valueFor(model, f, "full");
        for (const rel of sm.fields.filter((f) => f.relation)) {
          if (isDeferred(model, rel)) {
            deferred.push({ model, rel });
            rel.relation!.fields.forEach((fk) => (data[fk] = null));
            continue;
          }
          const parent = rows.get(rel.type);
          if (!parent) throw new Error(`${model}.${rel.name}: parent ${rel.type} not created first`);
          rel.relation!.fields.forEach((fk, i) => (data[fk] = parent[rel.relation!.references[i]]));
        }
        const created = await delegate(db.prisma, model)
          .create({ data })
          .catch((err: Error) => {
            throw new Error(`Creating a full ${model} row failed (is a column missing from the migrations?): ${err.message}`);
          });
        expect(created, `${model} as create returns it`).toEqual(data);
        expect(await delegate(db.prisma, model).findMany(), `${model} read back`).toEqual([data]);
        rows.set(model, data);
      }
      for (const { model, rel } of deferred) {
        const data = rows.get(model)!;
        const parent = rows.get(rel.type)!;
        const fields = schema.models.get(model)!.fields;
        const set = Object.fromEntries(rel.relation!.fields.map((fk, i) => [fk, parent[rel.relation!.references[i]]]));
        Object.assign(data, set);
        // @updatedAt keeps the value it was written with, so the row reads back exactly.
        for (const f of fields.filter((f) => f.updatedAt)) set[f.name] = data[f.name];
        const where = Object.fromEntries(fields.filter((f) => f.id).map((f) => [f.name, data[f.name]]));
        await (delegate(db.prisma, model) as unknown as { update(a: unknown): Promise<unknown> }).update({ where, data: set });
        expect(await delegate(db.prisma, model).findMany(), `${model} read back with ${rel.name}`).toEqual([data]);
      }
      expect([...rows.keys()].sort()).toEqual([...modelNames].sort());
    });

    it("a row with only the columns that have no database default gets the schema's defaults and nulls", async () => {
      const rows = new Map<string, { [field: string]: unknown }>();
      for (const model of parentFirstOrder(modelNames)) {
        const sm = schema.models.get(model)!;
        const given: { [field: string]: unknown } = {};
        const expected: { [field: string]: unknown } = {};
        for (const field of scalars(model)) {
          const f = sf(model, field.name);
          if (f.optional) expected[f.name] = null;
          else if (f.default !== undefined && !CLIENT_DEFAULTS.test(f.default)) expected[f.name] = expectedDefault(model, f, field);
          else expected[f.name] = given[f.name] = valueFor(model, field, "min");
        }
        for (const rel of sm.fields.filter((f) => f.relation && !f.optional)) {
          rel.relation!.fields.forEach((fk, i) => (expected[fk] = given[fk] = rows.get(rel.type)![rel.relation!.references[i]]));
        }
        const cols = Object.keys(given).map((k) => sf(model, k).column);
        await rawQuery(
          db,
          `INSERT INTO "${sm.table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`,
          Object.values(given).map(sqlParam),
        ).catch((err: Error) => {
          throw new Error(`Inserting a minimal ${model} row failed (a NOT NULL column without default the schema calls optional?): ${err.message}`);
        });
        const idFields = sm.id ?? sm.fields.filter((f) => f.id).map((f) => f.name);
        const where = Object.fromEntries(idFields.map((k) => [k, given[k]]));
        const found = await delegate(db.prisma, model).findMany({ where });
        expect(found, `${model} minimal row`).toEqual([expected]);
        rows.set(model, expected);
      }
    });

    it("every column has the schema's type and nullability, and no table or column is missing from the schema", async () => {
      const typeOf = (field: RuntimeField): [string, string] => {
        if (field.kind === "enum") return ["USER-DEFINED", field.type];
        const t = {
          String: ["text", "text"],
          Int: ["integer", "int4"],
          BigInt: ["bigint", "int8"],
          Float: ["double precision", "float8"],
          Decimal: ["numeric", "numeric"],
          Boolean: ["boolean", "bool"],
          DateTime: ["timestamp without time zone", "timestamp"],
          Json: ["jsonb", "jsonb"],
          Bytes: ["bytea", "bytea"],
        }[field.type];
        if (!t) throw new Error(`Unknown type ${field.type}`);
        return t as [string, string];
      };
      const cols = await rawQuery<{
        table_name: string;
        column_name: string;
        data_type: string;
        udt_name: string;
        is_nullable: string;
        precision: number | null;
      }>(
        db,
        `SELECT table_name, column_name, data_type, udt_name, is_nullable, datetime_precision AS precision
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          ORDER BY table_name, column_name`,
      );
      const expected = modelNames.flatMap((model) =>
        scalars(model).map((field) => {
          const f = sf(model, field.name);
          const [data_type, udt_name] = typeOf(field);
          return {
            table_name: tableOf(model),
            column_name: f.column,
            data_type,
            udt_name,
            is_nullable: f.optional ? "YES" : "NO",
            precision: field.type === "DateTime" ? 3 : null,
          };
        }),
      );
      const key = (c: { table_name: string; column_name: string }) => `${c.table_name}.${c.column_name}`;
      // Full-text search's generated tsvector columns (lib/search/search.ts, lib/knowledge/search.ts) and
      // knowledge passages' pgvector embeddings are beyond schema.prisma: they exist, and nothing else is extra.
      const fullText = cols.filter((c) => c.udt_name === "tsvector");
      expect(fullText.map(key).sort()).toEqual(["Block.searchVector", "Chat.searchVector", "KnowledgeChunk.searchVector"]);
      const vectors = cols.filter((c) => c.udt_name === "vector");
      expect(vectors.map((c) => ({ column: key(c), nullable: c.is_nullable }))).toEqual([{ column: "KnowledgeChunk.embedding", nullable: "YES" }]);
      expected.sort((a, b) => key(a).localeCompare(key(b)));
      const rest = cols.filter((c) => !fullText.includes(c) && !vectors.includes(c)).sort((a, b) => key(a).localeCompare(key(b)));
      expect(rest).toEqual(expected);
    });

    it("the database enums have exactly the schema's values", async () => {
      const rows = await rawQuery<{ name: string; labels: string[] }>(
        db,
        `SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
           FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
          WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`,
      );
      const fromSchema = [...schema.enums].map(([name, labels]) => ({ name, labels })).sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(rows).toEqual(fromSchema);
    });

    it("every primary key, unique constraint, index and foreign key of the schema exists with Prisma's name", async () => {
      type Ix = { table: string; name: string; unique: boolean; primary: boolean; columns: string[] };
      const indexes = await rawQuery<Ix>(
        db,
        `SELECT t.relname AS "table", i.relname AS name, x.indisunique AS "unique", x.indisprimary AS "primary",
                array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o)
                        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns
           FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'`,
      );
      type Fk = { table: string; name: string; columns: string[]; ref_table: string; ref_columns: string[]; on_delete: string; on_update: string };
      const fks = await rawQuery<Fk>(
        db,
        `SELECT t.relname AS "table", c.conname AS name, r.relname AS ref_table,
                array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns,
                array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                        JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ref_columns,
                c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE c.contype = 'f' AND n.nspname = 'public'`,
      );

      const expectedIx: Ix[] = [];
      const expectedFk: Fk[] = [];
      const action: { [k: string]: string } = { Cascade: "c", SetNull: "n", Restrict: "r", NoAction: "a", SetDefault: "d" };
      for (const model of modelNames) {
        const sm = schema.models.get(model)!;
        const col = (name: string) => sf(model, name).column;
        const table = sm.table;
        const id = sm.id ?? sm.fields.filter((f) => f.id).map((f) => f.name);
        expectedIx.push({ table, name: `${table}_pkey`, unique: true, primary: true, columns: id.map(col) });
        for (const f of sm.fields.filter((x) => x.unique)) {
          expectedIx.push({ table, name: `${table}_${f.column}_key`, unique: true, primary: false, columns: [f.column] });
        }
        for (const u of sm.uniques) {
          const cs = u.map(col);
          expectedIx.push({ table, name: `${table}_${cs.join("_")}_key`, unique: true, primary: false, columns: cs });
        }
        for (const ix of sm.indexes) {
          const cs = ix.map(col);
          expectedIx.push({ table, name: `${table}_${cs.join("_")}_idx`, unique: false, primary: false, columns: cs });
        }
        for (const f of sm.fields.filter((x) => x.relation)) {
          const cs = f.relation!.fields.map(col);
          const parent = schema.models.get(f.type)!;
          expectedFk.push({
            table,
            name: `${table}_${cs.join("_")}_fkey`,
            columns: cs,
            ref_table: parent.table,
            ref_columns: f.relation!.references.map((r) => sf(f.type, r).column),
            // Prisma's defaults: Restrict for a required relation, SetNull for an optional one; Cascade on update.
            on_delete: action[f.relation!.onDelete ?? (f.optional ? "SetNull" : "Restrict")],
            on_update: action[f.relation!.onUpdate ?? "Cascade"],
          });
        }
      }
      const byName = <T extends { table: string; name: string }>(xs: T[]) => [...xs].sort((a, b) => (`${a.table}.${a.name}` < `${b.table}.${b.name}` ? -1 : 1));
      // Full-text search's GIN indexes on those columns (lib/search/search.ts) are beyond schema.prisma too.
      const fullText = indexes.filter((ix) => ix.name.endsWith("_search_idx"));
      expect(fullText.map((ix) => ix.name).sort()).toEqual(["Block_search_idx", "Chat_search_idx", "KnowledgeChunk_search_idx"]);
      expect(byName(indexes.filter((ix) => !fullText.includes(ix)))).toEqual(byName(expectedIx));
      expect(byName(fks)).toEqual(byName(expectedFk));
    });

    it("the database enforces a unique constraint of the schema (one membership per user and team)", async () => {
      const team = await db.prisma.team.create({ data: { name: "uniq team" } });
      const user = await db.prisma.user.create({ data: { id: `uniq-${driver.kind}`, name: "U", email: `uniq-${driver.kind}@example.com` } });
      await db.prisma.membership.create({ data: { teamId: team.id, userId: user.id, role: "admin" } });
      const err = await db.prisma.membership.create({ data: { teamId: team.id, userId: user.id, role: "member" } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      expect((err as Prisma.PrismaClientKnownRequestError).code).toBe("P2002");
      expect(await db.prisma.membership.findMany({ where: { teamId: team.id } })).toEqual([expect.objectContaining({ userId: user.id, role: "admin" })]);
      // And a foreign key: a membership of a user that does not exist is refused.
      await expect(db.prisma.membership.create({ data: { teamId: team.id, userId: "no-such-user" } })).rejects.toMatchObject({ code: "P2003" });
    });
  });
}
