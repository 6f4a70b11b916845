// What a listed model is for, judged from its id: providers list embedding, speech, image and
// moderation models next to chat models, and only chat models can answer in a chat. Used to mark
// (and leave unticked) the models a fetched list offers that are not for chatting.
export type ModelPurpose = "chat" | "embedding" | "other";

const EMBEDDING = /(^|[^a-z])(text-)?embed(ding)?s?([^a-z]|$)|embedding|^e5-|^bge-|^gte-|nomic-embed|minilm/i;
const NOT_CHAT = /whisper|tts|dall-e|gpt-image|image-gen|moderation|transcribe|rerank|speech|audio-preview|realtime|babbage|davinci-00|^sora/i;

export function modelPurpose(modelId: string): ModelPurpose {
  if (EMBEDDING.test(modelId)) return "embedding";
  if (NOT_CHAT.test(modelId)) return "other";
  return "chat";
}
