// An input a person edited before approving a call: it must be a JSON object within size limits that
// the tool's input schema (as the MCP server lists it, stored on the tool's row) accepts. Anything
// else is refused with the schema's complaint, and nothing runs.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/client";
import { z } from "zod";
import { db } from "../db/client";
import { Invalid } from "../errors";

/** The most an edited input may weigh (as JSON). */
export const MAX_EDITED_INPUT_CHARS = 100_000;

export const editedInputSchema = z.record(z.string().max(200), z.unknown());

const validator = new AjvJsonSchemaValidator();

/** The tool's row id, from the call's tool metadata (MCP tools carry it). */
export function toolIdOf(extras: unknown): string | undefined {
  const meta = (extras as { toolMetadata?: { toolId?: unknown } } | null)?.toolMetadata;
  return typeof meta?.toolId === "string" ? meta.toolId : undefined;
}

/** The edited input, checked against the team's tool's schema; 400 with the reason otherwise. */
export async function checkEditedInput(teamId: string, toolId: string | undefined, input: unknown): Promise<Record<string, unknown>> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw Invalid("The edited input must be a JSON object.");
  const text = JSON.stringify(input);
  if (text.length > MAX_EDITED_INPUT_CHARS) throw Invalid(`The edited input is larger than ${MAX_EDITED_INPUT_CHARS} characters.`);
  if (text.includes("\\u0000")) throw Invalid("The edited input contains a null character.");
  const prisma = await db();
  const tool = toolId ? await prisma.mcpTool.findFirst({ where: { id: toolId, server: { teamId } }, select: { inputSchema: true } }) : null;
  if (!tool?.inputSchema) throw Invalid("This call's input cannot be edited: its tool has no input schema.");
  let check: ReturnType<typeof validator.getValidator>;
  try {
    check = validator.getValidator({ type: "object", ...(tool.inputSchema as object) } as JsonSchemaType);
  } catch {
    throw Invalid("This call's input cannot be edited: its tool's input schema is not valid.");
  }
  const result = check(input);
  if (!result.valid) throw Invalid(`The edited input does not fit the tool: ${result.errorMessage}`);
  return input as Record<string, unknown>;
}
