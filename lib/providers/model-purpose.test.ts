// Fetched model lists: embedding and other non-chat models are told apart from chat models by id.
import { describe, expect, it } from "vitest";
import { modelPurpose } from "./model-purpose";

describe("modelPurpose", () => {
  it("marks embedding models", () => {
    for (const id of ["text-embedding-3-small", "text-embedding-ada-002", "nomic-embed-text", "mxbai-embed-large", "bge-m3", "all-minilm", "embeddinggemma"])
      expect(modelPurpose(id), id).toBe("embedding");
  });
  it("marks speech, image and moderation models as not for chat", () => {
    for (const id of ["whisper-1", "tts-1-hd", "dall-e-3", "gpt-image-1", "omni-moderation-latest", "gpt-4o-transcribe", "gpt-4o-realtime-preview"])
      expect(modelPurpose(id), id).toBe("other");
  });
  it("keeps chat models", () => {
    for (const id of ["gpt-4.1-mini", "gpt-4o", "o3", "llama3.2", "qwen2.5:7b", "claude-sonnet-4-5", "local-llama"]) expect(modelPurpose(id), id).toBe("chat");
  });
});
