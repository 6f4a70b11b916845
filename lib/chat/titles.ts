// A chat's title, made from its first message: the first line, whitespace collapsed, cut at a word
// boundary. Instant and free (no extra model call); the user can rename it.
export function titleFrom(text: string, max = 60): string {
  const line = text.trim().split(/\r?\n/).find((l) => l.trim()) ?? "";
  const flat = line.replace(/\s+/g, " ").trim().replace(/^#+\s*/, "");
  if (!flat) return "New chat";
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}
