// Test helpers for turns: a scripted OpenAI-compatible upstream (aimock on loopback), a team with a
// provider pointing at it, and reading a turn's SSE response back into chunks. Not imported by the app.
import { LLMock } from "@copilotkit/aimock";
import { db } from "@/lib/db/client";
import type { ProviderKind } from "@/lib/db/generated/client";
import { encryptSecret } from "@/lib/security/keyring";
import type { TeamContext } from "@/lib/teams/team-context";
import { makeUser } from "./test-app";

export async function startUpstream(opts: { chunkSize?: number } = {}): Promise<LLMock> {
  const mock = new LLMock({ port: 0, host: "127.0.0.1", chunkSize: opts.chunkSize ?? 4 });
  await mock.start();
  return mock;
}

/** A team, its admin, and a provider of `kind` pointing at the upstream, with one default model. */
export async function teamWithProvider(upstreamUrl: string, kind: ProviderKind = "openai_chat", modelId = "gpt-test") {
  const prisma = await db();
  const user = await makeUser("chatter");
  const team = await prisma.team.create({ data: { name: `Team ${user.id}` } });
  await prisma.membership.create({ data: { teamId: team.id, userId: user.id, role: "admin" } });
  const provider = await prisma.provider.create({
    data: { teamId: team.id, name: "aimock", kind, baseUrl: `${upstreamUrl}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") },
  });
  const model = await prisma.model.create({ data: { providerId: provider.id, modelId, displayName: modelId } });
  await prisma.team.update({ where: { id: team.id }, data: { defaultModelId: model.id } });
  const ctx: TeamContext = {
    user: { id: user.id, name: user.name, email: user.email },
    team: { id: team.id, name: team.name, role: "admin" },
    teams: [{ id: team.id, name: team.name, role: "admin" }],
  };
  const chat = await prisma.chat.create({ data: { teamId: team.id, userId: user.id } });
  return { ctx, chat, provider, model };
}

export type SseChunk = { type: string; [k: string]: unknown };

/** Reads a UI message stream response to its end. */
export async function readChunks(res: Response): Promise<SseChunk[]> {
  const text = await res.text();
  return parseSse(text);
}

export function parseSse(text: string): SseChunk[] {
  return text
    .split("\n\n")
    .map((e) => e.trim())
    .filter((e) => e.startsWith("data: ") && e !== "data: [DONE]")
    .map((e) => JSON.parse(e.slice(6)) as SseChunk);
}

/**
 * Reads a turn's stream until `until` holds for the chunks so far (as a browser watching it would);
 * `rest` reads the remainder and resolves with all chunks.
 */
export async function readUntil(res: Response, until: (chunks: SseChunk[]) => boolean): Promise<{ rest: Promise<SseChunk[]> }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!until(parseSse(text.slice(0, text.lastIndexOf("\n\n") + 2)))) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return parseSse(text);
      text += value;
    }
  })();
  return { rest };
}

export function textOf(chunks: SseChunk[]): string {
  return chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta as string)
    .join("");
}

/** The stored assistant message of a chat (the newest), with its blocks. */
export async function storedAnswer(chatId: string) {
  const prisma = await db();
  return prisma.message.findFirstOrThrow({
    where: { chatId, role: "assistant" },
    orderBy: { seq: "desc" },
    include: { blocks: { orderBy: { ordinal: "asc" } } },
  });
}
