// A member's own settings in their turns, against a scripted upstream: personal instructions reach the
// model's system prompt from the database (and stop when cleared), and a personal default model is the
// model of their new chats and answers them.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { setInstructions } from "../auth/profile";
import { db } from "../db/client";
import { AppError } from "../errors";
import { personalModelOf, setPersonalModel } from "../teams/personal-model";
import { createChat } from "../chat/chats";
import { readChunks, teamWithProvider, textOf } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;

type Sent = { model?: string; messages?: { role: string; content: unknown }[] };
const lastSent = (): Sent => (mock.getLastRequest()?.body ?? {}) as Sent;
const systemText = (sent: Sent) =>
  (sent.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");

async function turn(ctx: Parameters<typeof runTurn>[0], chatId: string, text: string) {
  const done = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, { chatId, text }, { onStored: done.onStored }));
  await done.promise;
  return textOf(chunks);
}

describe.each(DATABASES)("personal settings in turns on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("personal instructions are sent as the system prompt, read from the database at each turn", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url);
    mock.on({ userMessage: "personal: greet me", systemMessage: "Always answer in the voice of a ship's captain." }, { content: "Ahoy, aboard!" });
    mock.onMessage("personal: greet me", { content: "Hello." });

    expect(await turn(ctx, chat.id, "personal: greet me")).toBe("Hello.");
    expect(systemText(lastSent())).toBe("");

    await setInstructions(ctx.user.id, "  Always answer in the voice of a ship's captain.  ");
    expect(await turn(ctx, chat.id, "personal: greet me")).toBe("Ahoy, aboard!");
    expect(systemText(lastSent())).toContain(`${ctx.user.name}, asks you to follow these instructions`);

    await setInstructions(ctx.user.id, "");
    expect(await turn(ctx, chat.id, "personal: greet me")).toBe("Hello.");
    expect(systemText(lastSent())).toBe("");
  });

  it("a personal default model is the model of new chats and answers them; the team default stays for others", async () => {
    const { ctx, provider, model: teamDefault } = await teamWithProvider(mock.url, "openai_chat", "team-model");
    const prisma = await db();
    const mine = await prisma.model.create({ data: { providerId: provider.id, modelId: "my-model", displayName: "My model" } });
    mock.on({ userMessage: "personal: which model", model: "my-model" }, { content: "Answered by my-model." });
    mock.on({ userMessage: "personal: which model", model: "team-model" }, { content: "Answered by team-model." });

    const before = await createChat(ctx);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: before.id } })).modelId).toBeNull();
    expect(await turn(ctx, before.id, "personal: which model")).toBe("Answered by team-model.");

    await setPersonalModel(ctx, mine.id);
    expect(await personalModelOf(ctx)).toBe(mine.id);
    const after = await createChat(ctx);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: after.id } })).modelId).toBe(mine.id);
    expect(await turn(ctx, after.id, "personal: which model")).toBe("Answered by my-model.");
    expect(lastSent().model).toBe("my-model");

    // A disabled model is no one's default any more: new chats take the team's.
    await prisma.model.update({ where: { id: mine.id }, data: { enabled: false } });
    expect(await personalModelOf(ctx)).toBeNull();
    const later = await createChat(ctx);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: later.id } })).modelId).toBeNull();
    expect(await turn(ctx, later.id, "personal: which model")).toBe("Answered by team-model.");
    expect(teamDefault.modelId).toBe("team-model");
  });

  it("only a model of the member's own team can be their default", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const other = await teamWithProvider(mock.url, "openai_chat", "elsewhere-model");
    const err = await setPersonalModel(ctx, other.model.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect(await personalModelOf(ctx)).toBeNull();
    await setPersonalModel(ctx, "");
    expect(await personalModelOf(ctx)).toBeNull();
  });
});
