// A CSV table as text a passage can be read from on its own: each row on its own line with the header's
// names beside its values ("Name: Ada; Role: engineer"), so any chunk of rows still says what each value
// is. Quoted fields (RFC 4180: commas, quotes, line ends inside quotes) are read; a `;` or tab
// separator is used when the header line has more of those than commas.

import { TextBuilder } from "./text-builder";
import type { ExtractedDocument } from "./types";

export function extractCsv(source: string): ExtractedDocument {
  const rows = parseCsv(source).filter((row) => row.some((cell) => cell.trim()));
  const builder = new TextBuilder();
  const [header = [], ...body] = rows;
  const names = header.map((name, index) => name.trim() || `Column ${index + 1}`);
  body.forEach((row, index) => {
    const fields = row.map((value, column) => `${names[column] ?? `Column ${column + 1}`}: ${value.replace(/\s+/g, " ").trim()}`);
    builder.breakLine();
    builder.append(`Row ${index + 1} — ${fields.join("; ")}`);
  });
  if (body.length === 0 && header.length > 0) builder.append(names.join("; "));
  return builder.finish("csv");
}

/** Rows of fields; quotes around a field are removed and doubled quotes inside it made single. */
export function parseCsv(source: string): string[][] {
  const text = source.replace(/^\uFEFF/, "");
  const separator = pickSeparator(text.split("\n", 1)[0]);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

function pickSeparator(headerLine: string): string {
  const counts = [",", ";", "\t"].map((separator) => ({ separator, count: headerLine.split(separator).length - 1 }));
  const best = counts.reduce((a, b) => (b.count > a.count ? b : a));
  return best.count > 0 ? best.separator : ",";
}
