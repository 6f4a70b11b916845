// What the project form offers: the team's models and its MCP servers with their tools.
import { pickerModels } from "@/lib/providers/models";
import type { TeamContext } from "@/lib/teams/team-context";
import { pickerServers } from "@/lib/tools/member-tools";

export async function projectFormData(ctx: TeamContext) {
  const [models, servers] = await Promise.all([pickerModels(ctx.team.id), pickerServers(ctx)]);
  return { models: models.groups, servers: servers.map((s) => ({ id: s.id, name: s.name, tools: s.tools.map((t) => ({ id: t.id, name: t.name })) })) };
}
