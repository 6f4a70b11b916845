"use client";
// A tool's structured content (already checked against its output schema on the server), readable:
// an object as a table of fields, a list of like objects as a table with a column per field, and
// anything nested as a tree of the same (nesting beyond a few levels, or very large values, as JSON).
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { Json } from "../shared/large-output";

const MAX_DEPTH = 4;
const MAX_ROWS = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

function Value({ value, depth, label }: { value: unknown; depth: number; label: string }) {
  if (isScalar(value)) return <span className={typeof value === "string" ? "" : "font-mono"}>{value === null ? "—" : String(value)}</span>;
  if (depth >= MAX_DEPTH) return <Json value={value} label={label} />;
  if (Array.isArray(value)) {
    if (value.length && value.every(isObj)) return <ObjectList rows={value} depth={depth} label={label} />;
    if (value.every(isScalar)) return <span>{value.map((v) => (v === null ? "—" : String(v))).join(", ")}</span>;
    return (
      <ol className="list-decimal pl-5">
        {value.slice(0, MAX_ROWS).map((v, i) => (
          <li key={i}>
            <Value value={v} depth={depth + 1} label={`${label} ${i + 1}`} />
          </li>
        ))}
      </ol>
    );
  }
  return <Fields obj={value as Obj} depth={depth} label={label} />;
}

function Fields({ obj, depth, label }: { obj: Obj; depth: number; label: string }) {
  return (
    <Table label={label}>
      <TableBody>
        {Object.entries(obj).map(([k, v]) => (
          <TableRow key={k}>
            <TableHead className="w-1/3 align-top text-xs text-subtle">{k}</TableHead>
            <TableCell>
              <Value value={v} depth={depth + 1} label={k} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ObjectList({ rows, depth, label }: { rows: Obj[]; depth: number; label: string }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    <Table label={label}>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <TableHead key={c}>{c}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.slice(0, MAX_ROWS).map((r, i) => (
          <TableRow key={i}>
            {columns.map((c) => (
              <TableCell key={c} className="align-top">
                <Value value={r[c]} depth={depth + 1} label={c} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function StructuredView({ value }: { value: unknown }) {
  return (
    <div className="flex flex-col gap-1" data-structured>
      <p className="text-xs font-medium text-subtle">Structured content</p>
      <Value value={value} depth={0} label="Structured content" />
      <Json value={value} label="As JSON" />
    </div>
  );
}
