// Test helper for knowledge bases: a team with an admin, a member and an embedding provider, another
// team, passages written into a document as the indexing job will write them (rows, then embeddings),
// and PDFs made with pdf-lib (pages of lines of text).
import { PDFDocument, StandardFonts } from "pdf-lib";
import { db } from "../../lib/db/client";
import { writeEmbeddings } from "../../lib/knowledge/vector-store";
import type { TeamContext } from "../../lib/teams/team-context";
import { teamMember } from "./test-app";

export type KnowledgeTeam = { admin: TeamContext; member: TeamContext; providerId: string };

/** A new team with an admin, a member and an OpenAI-compatible provider to name as the embedding model's. */
export async function knowledgeTeam(name = "Knowledge"): Promise<KnowledgeTeam> {
  const prisma = await db();
  const team = await prisma.team.create({ data: { name } });
  const provider = await prisma.provider.create({ data: { teamId: team.id, name: "Embeddings", kind: "openai_compatible", baseUrl: "http://127.0.0.1:9/v1" } });
  return { admin: await teamMember(team.id, "Ada Admin", "admin"), member: await teamMember(team.id, "Max Member"), providerId: provider.id };
}

export type TestPassage = { text: string; page?: number; headingPath?: string[]; embedding?: number[] };

/** Stores passages of a document's current version (or `version`), in order, with their embeddings when given. */
export async function writePassages(documentId: string, passages: TestPassage[], version?: number): Promise<string[]> {
  const prisma = await db();
  const doc = await prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: documentId }, include: { base: true } });
  let at = 0;
  const ids: string[] = [];
  for (const [ordinal, p] of passages.entries()) {
    const row = await prisma.knowledgeChunk.create({
      data: {
        baseId: doc.baseId,
        documentId,
        version: version ?? doc.version,
        ordinal,
        page: p.page ?? null,
        headingPath: p.headingPath ?? [],
        charStart: at,
        charEnd: at + p.text.length,
        text: p.text,
      },
    });
    at += p.text.length + 1;
    ids.push(row.id);
  }
  const withVectors = passages.flatMap((p, i) => (p.embedding ? [{ key: ids[i], embedding: p.embedding }] : []));
  const col = { table: "KnowledgeChunk", key: "id", column: "embedding", dimensions: doc.base.embeddingDimensions };
  await writeEmbeddings(prisma, col, withVectors);
  return ids;
}

/** A PDF whose pages each hold lines of [size, text]; an empty page has no text at all. */
export async function makePdf(pages: [number, string][][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    for (const [size, text] of lines) {
      page.drawText(text, { x: 50, y, size, font });
      y -= size * 2;
    }
  }
  return pdf.save();
}
