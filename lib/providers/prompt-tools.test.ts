// The prompt-based tool middleware on a scripted model: tools go into the system prompt, streamed
// markup becomes tool calls and never answer text, malformed markup is re-asked at most twice.
import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { markupParser, promptWithTools } from "./prompt-tool-markup";
import { promptToolsMiddleware } from "./prompt-tools";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model answering each call with the next script, streamed in small pieces. */
function scripted(answers: string[], piece = 3) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      const text = answers[Math.min(calls.length - 1, answers.length - 1)];
      const deltas: LanguageModelV4StreamPart[] = [];
      for (let i = 0; i < text.length; i += piece) deltas.push({ type: "text-delta", id: "t", delta: text.slice(i, i + piece) });
      return {
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          ...deltas,
          { type: "text-end", id: "t" },
          { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
        ]),
      };
    },
  });
  return { model: wrapLanguageModel({ model, middleware: promptToolsMiddleware() }), calls };
}

const weatherTool: LanguageModelV4FunctionTool = {
  type: "function",
  name: "get_weather",
  description: "Weather by city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const params = (prompt?: LanguageModelV4Prompt): LanguageModelV4CallOptions => ({
  prompt: prompt ?? [
    { role: "system", content: "You are helpful." },
    { role: "user", content: [{ type: "text", text: "Weather in Seoul?" }] },
  ],
  tools: [weatherTool],
  toolChoice: { type: "auto" },
});

async function collect(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return parts;
}
const textOf = (parts: LanguageModelV4StreamPart[]) => parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");

const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Seoul"}}\n</tool_call>';

describe("prompt-based tool calling", () => {
  it("describes the tools in the system prompt and sends no native tools", async () => {
    const { model, calls } = scripted(["Hello."]);
    await collect((await model.doStream(params())).stream);
    const sent = calls[0];
    expect(sent.tools).toBeUndefined();
    expect(sent.prompt[0]).toMatchObject({ role: "system" });
    const system = (sent.prompt[0] as { content: string }).content;
    expect(system).toContain("You are helpful.");
    expect(system).toContain("get_weather");
    expect(system).toContain('"city"');
    expect(system).toContain("<tool_call>");
  });

  it("turns streamed markup into a tool call, with no markup in the text", async () => {
    const { model } = scripted([CALL], 2);
    const parts = await collect((await model.doStream(params())).stream);
    expect(textOf(parts)).toBe("");
    const call = parts.find((p) => p.type === "tool-call");
    expect(call).toMatchObject({ toolName: "get_weather", input: JSON.stringify({ city: "Seoul" }) });
    const types = parts.map((p) => p.type);
    expect(types.indexOf("tool-input-start")).toBeLessThan(types.indexOf("tool-call"));
    expect(types).toContain("tool-input-end");
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
  });

  it("keeps the text around a tool call and never shows a partial tag", async () => {
    const { model } = scripted([`Let me check. a < b.\n${CALL}`], 1);
    const parts = await collect((await model.doStream(params())).stream);
    const deltas = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : []));
    expect(deltas.join("")).toBe("Let me check. a < b.\n");
    for (const d of deltas) expect(d).not.toMatch(/<t|tool_call/);
    expect(parts.filter((p) => p.type === "tool-call")).toHaveLength(1);
  });

  it("re-asks once with a correction for malformed markup and then runs the good call", async () => {
    const { model, calls } = scripted(['<tool_call>{"name": "get_weather", "arguments": {city: Seoul}}</tool_call>', CALL]);
    const parts = await collect((await model.doStream(params())).stream);
    expect(calls).toHaveLength(2);
    const reask = calls[1].prompt.slice(-2);
    expect(reask[0]).toMatchObject({ role: "assistant", content: [{ type: "text", text: expect.stringContaining("{city: Seoul}") }] });
    expect(reask[1]).toMatchObject({ role: "user", content: [{ type: "text", text: expect.stringContaining("not valid JSON") }] });
    expect(parts.filter((p) => p.type === "tool-call")).toHaveLength(1);
    expect(parts.some((p) => p.type === "error")).toBe(false);
    expect(textOf(parts)).toBe("");
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
  });

  it("does not show text or make a call twice when the re-asked answer repeats them", async () => {
    const first = `Checking. ${CALL} <tool_call>{"name": "get_weather", "arguments": 7}</tool_call>`;
    const second = `Checking. ${CALL} ${CALL.replace("Seoul", "Oslo")}`;
    const { model, calls } = scripted([first, second], 4);
    const parts = await collect((await model.doStream(params())).stream);
    expect(calls).toHaveLength(2);
    expect(calls[1].prompt.at(-1)).toMatchObject({ content: [{ text: expect.stringContaining('"arguments" is not a JSON object') }] });
    expect(textOf(parts)).toBe("Checking. ");
    const made = parts.flatMap((p) => (p.type === "tool-call" ? [JSON.parse(p.input).city] : []));
    expect(made).toEqual(["Seoul", "Oslo"]);
  });

  it("ends with a visible error after exactly 2 re-asks", async () => {
    const { model, calls } = scripted([
      'Sure. <tool_call>{"name": "get_weather"',
      '<tool_call>{"name": "nope", "arguments": {}}</tool_call>',
      "<tool_call>[1]</tool_call>",
    ]);
    const parts = await collect((await model.doStream(params())).stream);
    expect(calls).toHaveLength(3);
    expect(calls[1].prompt.at(-1)).toMatchObject({ content: [{ text: expect.stringContaining("never closed") }] });
    expect(calls[2].prompt.at(-1)).toMatchObject({ content: [{ text: expect.stringContaining('no tool named "nope"') }] });
    const error = parts.find((p) => p.type === "error");
    expect(error).toMatchObject({ error: { code: "ToolMarkupInvalid" } });
    expect(parts.some((p) => p.type === "tool-call")).toBe(false);
    expect(textOf(parts)).toBe("Sure. ");
  });

  it("renders tool calls, results and denials in the history as text", () => {
    const out = promptWithTools(
      [
        { role: "user", content: [{ type: "text", text: "Weather?" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: { city: "Seoul" } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "get_weather", output: { type: "json", value: { celsius: 23 } } }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c2", toolName: "get_weather", input: { city: "Oslo" } }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c2", toolName: "get_weather", output: { type: "execution-denied", reason: "not now" } }],
        },
      ],
      "TOOLS",
    );
    expect(out[0]).toEqual({ role: "system", content: "TOOLS" });
    expect(out.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(JSON.stringify(out[2])).toContain("<tool_call>");
    const result = (out[3].content as { text: string }[])[0].text;
    expect(result).toContain("<tool_response>");
    expect(result).toContain('\\"celsius\\":23');
    expect((out[5].content as { text: string }[])[0].text).toContain("[ERROR:Denied]");
    expect(out.some((m) => m.role === "tool")).toBe(false);
  });

  it("runs the tool through streamText like a native call", async () => {
    const { model, calls } = scripted([CALL, "It is sunny in Seoul."]);
    const ran: unknown[] = [];
    const result = streamText({
      model,
      prompt: "Weather in Seoul?",
      stopWhen: stepCountIs(3),
      tools: {
        get_weather: tool({
          description: "Weather by city",
          inputSchema: jsonSchema<{ city: string }>(weatherTool.inputSchema as never),
          execute: async (input) => {
            ran.push(input);
            return { condition: "sunny" };
          },
        }),
      },
    });
    expect(await result.text).toBe("It is sunny in Seoul.");
    expect(ran).toEqual([{ city: "Seoul" }]);
    expect(JSON.stringify(calls[1].prompt)).toContain("sunny");
    expect(calls[1].prompt.some((m) => m.role === "tool")).toBe(false);
  });

  it("works without streaming too: a re-ask, then the call", async () => {
    const answers = ["<tool_call>{oops}</tool_call>", `Sure.\n${CALL}`];
    const calls: LanguageModelV4CallOptions[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        calls.push(options);
        return { content: [{ type: "text", text: answers[calls.length - 1] }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      },
    });
    const model = wrapLanguageModel({ model: inner, middleware: promptToolsMiddleware() });
    const result = await model.doGenerate(params());
    expect(calls).toHaveLength(2);
    expect(result.content.map((c) => c.type)).toEqual(["text", "tool-call"]);
    expect(result.content[0]).toEqual({ type: "text", text: "Sure.\n" });
    expect(result.finishReason.unified).toBe("tool-calls");
    expect(result.usage.inputTokens.total).toBe(20);
  });

  it("a fake tool response written by the model ends the answer there", () => {
    const p = markupParser(new Set(["get_weather"]));
    const events = [...p.push(`${CALL}\n<tool_response>{"content": "made up"}`), ...p.end()];
    expect(events.map((e) => e.type)).toEqual(["call", "text", "stop"]);
  });
});
