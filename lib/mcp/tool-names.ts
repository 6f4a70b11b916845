// Names the model sees for MCP tools: `<server>__<tool>`, made of [a-zA-Z0-9_-] and at most 64
// characters (what OpenAI, Anthropic and others accept), unique within a turn, deterministic (the
// same server and tool get the same name in every turn, so history stays readable), and mapped
// back exactly to (server id, original tool name) through the table built here.
import crypto from "node:crypto";

const MAX_TOOL_NAME = 64;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const SEP = "__";
const SERVER_PART_MAX = 24;

export type ToolRef = { serverId: string; serverName: string; toolName: string };

function slug(s: string, max: number): string {
  const out = s
    .normalize("NFKD")
    .replace(/[^a-zA-Z0-9_-]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
  return out.slice(0, max) || "x";
}

const shortHash = (s: string) => crypto.createHash("sha256").update(s).digest("hex").slice(0, 8);

function candidate(ref: ToolRef): { name: string; exact: boolean } {
  const server = slug(ref.serverName, SERVER_PART_MAX);
  const tool = slug(ref.toolName, MAX_TOOL_NAME);
  const name = `${server}${SEP}${tool}`;
  const exact = tool === ref.toolName && name.length <= MAX_TOOL_NAME;
  return { name: name.slice(0, MAX_TOOL_NAME), exact };
}

function hashed(ref: ToolRef): string {
  const h = shortHash(`${ref.serverId}\u0000${ref.toolName}`);
  const { name } = candidate(ref);
  return `${name.slice(0, MAX_TOOL_NAME - h.length - 1)}_${h}`;
}

/**
 * Model-facing names for a turn's tools. A tool whose name had to change (characters replaced,
 * shortened) or that collides with another gets a hash of its server id and original name appended,
 * so distinct tools never share a name.
 */
export function namespaceTools(refs: ToolRef[]): Map<string, ToolRef> {
  const sorted = [...refs].sort((a, b) => (a.serverId + "\u0000" + a.toolName < b.serverId + "\u0000" + b.toolName ? -1 : 1));
  const plain = new Map<string, ToolRef[]>();
  for (const ref of sorted) {
    const { name } = candidate(ref);
    plain.set(name, [...(plain.get(name) ?? []), ref]);
  }
  const out = new Map<string, ToolRef>();
  for (const ref of sorted) {
    const { name, exact } = candidate(ref);
    const unique = exact && plain.get(name)!.length === 1;
    let final = unique ? name : hashed(ref);
    for (let i = 2; out.has(final); i++) final = `${hashed(ref).slice(0, MAX_TOOL_NAME - String(i).length - 1)}_${i}`;
    out.set(final, ref);
  }
  return out;
}
