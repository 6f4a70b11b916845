// The system prompt of a turn: the instructions of the chat's project (lib/projects), then the asking
// member's personal instructions (their profile), each read from the database with the chat; or none.
// Bounded where they are saved (lib/projects/projects.ts, lib/auth/profile.ts).
export function systemPrompt(asker: { name: string; instructions: string | null }, projectInstructions?: string | null): string | undefined {
  const parts: string[] = [];
  const project = projectInstructions?.trim();
  if (project) parts.push(`This chat belongs to a project whose instructions you follow in your answers:\n\n${project}`);
  const instructions = asker.instructions?.trim();
  if (instructions) parts.push(`The person you are talking with, ${asker.name}, asks you to follow these instructions in your answers:\n\n${instructions}`);
  return parts.length ? parts.join("\n\n") : undefined;
}
