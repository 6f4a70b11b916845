// Sections 5 and 6 of the report (PostgreSQL): what the database held halfway through each burst
// against what the browsers had shown, and the long chat against a new one.
import { fmt, pct, signed, table } from "./format";
import type { RunReport } from "./model";

export function storedSection(r: RunReport): string[] {
  const { o } = r;
  if (!o.only.includes("bursts")) return [];
  const pgSuite = r.suites.find((s) => !s.skipped && s.kind === "postgresql");
  const out = ["", "5. Stored vs shown mid-burst (PostgreSQL): what a crash at that moment would keep"];
  if (!pgSuite || !pgSuite.stored.length) return [...out, "  (no PostgreSQL burst)"];
  // The gap as time: how much of one chat's stream (at the paced rate) is shown but not yet stored,
  // over the chats that were showing text (a slow start must not dilute it).
  const charsPerMs = o.chunkChars / o.burstChunkMs;
  out.push(
    table(
      ["burst", "at ms", "chats showing text", "shown chars", "stored chars", "stored/shown", "not stored, ms of text per chat"],
      pgSuite.stored.map((m) => [
        `${m.n} concurrent`,
        fmt(m.atMs),
        `${m.showing}/${m.n}`,
        `${m.shown}`,
        fmt(m.stored),
        m.shown > 0 ? pct(m.stored / m.shown) : "-",
        m.showing ? fmt((m.shown - m.stored) / m.showing / charsPerMs) : "-",
      ]),
    ),
    "  At half the paced direct total, the characters the harness (the browsers) had received across the burst's answers, and the",
    "  characters of answer text committed in PostgreSQL for those chats. Parley writes a growing text block at most once per 150 ms,",
    "  so a healthy server leaves at most ~150 ms of text per chat unstored (~95%+ halfway through the default 10 s answer; less",
    "  with shorter answers); more means the writes lag behind the stream.",
  );
  for (const m of pgSuite.stored) if (m.error) out.push(`  ${m.n} concurrent: the query failed: ${m.error}`);
  return out;
}

export function longChatSection(r: RunReport): string[] {
  if (!r.o.only.includes("long")) return [];
  const lc = r.suites.find((s) => !s.skipped && s.kind === "postgresql")?.longChat;
  const out = [
    "",
    `6. A long chat and many chats (PostgreSQL): ${lc ? `${lc.messages} earlier messages of ${lc.chars} characters; then ${lc.chats} more chats` : "not run"}; p50 ms`,
  ];
  if (!lc) return out;
  return [
    ...out,
    table(
      ["request", "new chat", "long chat", "added"],
      lc.rows.map((x) => [x.what, fmt(x.fresh, 1), fmt(x.long, 1), `${signed(x.long - x.fresh)} ms`]),
    ),
    ...(lc.manyRows.length
      ? [
          "",
          table(
            ["request", "a few chats", `${lc.chats} more chats`, "added"],
            lc.manyRows.map((x) => [x.what, fmt(x.fresh, 1), fmt(x.long, 1), `${signed(x.long - x.fresh)} ms`]),
          ),
        ]
      : []),
    "  The page and the chat page read only the newest 50 messages; a turn reads and sends the newest messages that fit the",
    `  model's context window (the default 128,000 tokens: ~288 KB of the ~${Math.round((lc.messages * lc.chars) / 1000)} KB here), so its added time grows`,
    "  with the chat up to that size.",
  ];
}
