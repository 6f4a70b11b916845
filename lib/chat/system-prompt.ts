// The system prompt of a turn: the asking member's personal instructions (their profile, read from the
// database with the chat), or none. Bounded where they are saved (lib/auth/profile.ts).
export function systemPrompt(asker: { name: string; instructions: string | null }): string | undefined {
  const instructions = asker.instructions?.trim();
  if (!instructions) return undefined;
  return `The person you are talking with, ${asker.name}, asks you to follow these instructions in your answers:\n\n${instructions}`;
}
