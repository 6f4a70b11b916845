// McpTool rows follow what the server lists: new tools get a row (enabled), changed descriptions,
// schemas and annotations are updated, and lastSeenAt marks tools still offered. Rows of tools the
// server dropped stay (with the admin's choices) but are not offered: turns use the live list.
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { NotFound } from "../errors";
import type { McpToolInfo } from "./connection";

const json = (v: unknown) => (v === undefined || v === null ? undefined : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue));
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Brings the rows in line with the live list; writes only what differs. */
export async function syncToolRows(serverId: string, tools: McpToolInfo[]): Promise<void> {
  const prisma = await db();
  const rows = await prisma.mcpTool.findMany({ where: { serverId } });
  const byName = new Map(rows.map((r) => [r.name, r]));
  const now = new Date();
  const staleAfter = 60_000;
  const created: Prisma.McpToolCreateManyInput[] = [];
  for (const t of tools) {
    const fields = { title: t.title ?? null, description: t.description ?? null, inputSchema: json(t.inputSchema), annotations: json(t.annotations) };
    const row = byName.get(t.name);
    if (!row) {
      created.push({ serverId, name: t.name, ...fields, lastSeenAt: now });
    } else if (
      row.title !== fields.title ||
      row.description !== fields.description ||
      !same(row.inputSchema, fields.inputSchema) ||
      !same(row.annotations, fields.annotations) ||
      now.getTime() - row.lastSeenAt.getTime() > staleAfter
    ) {
      await prisma.mcpTool.update({ where: { id: row.id }, data: { ...fields, lastSeenAt: now } });
    }
  }
  if (created.length) await prisma.mcpTool.createMany({ data: created, skipDuplicates: true });
}

/** A tool of the team's servers, with its server's name and default policy; 404 for anything else. */
export async function teamToolRow(teamId: string, toolId: string, missing = "No such tool.") {
  const prisma = await db();
  const tool = await prisma.mcpTool.findFirst({
    where: { id: toolId, server: { teamId } },
    include: { server: { select: { name: true, defaultPolicy: true, trustReadOnly: true, decisionTimeoutMin: true } } },
  });
  if (!tool) throw NotFound(missing);
  return tool;
}
