// The UI message Parley streams and stores: its metadata and its data parts. Errors and notices travel
// as data parts (`data-error`, `data-notice`) so a live turn and a reloaded one render from the same parts.
import type { UIMessage } from "ai";
import type { CitationView } from "./citations";

export type ErrorData = { code: string; message: string };
/** `serverId`: for `ConnectRequired`, the MCP server whose Connect button the notice shows. */
export type NoticeData = { code: string; message: string; serverId?: string };

export type ParleyMetadata = {
  status?: "streaming" | "done" | "stopped" | "interrupted" | "error";
  model?: string;
  finishReason?: string;
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cachedInputTokens?: number;
    reasoningTokens?: number;
    /** US dollars (lib/usage/cost.ts); absent when unknown. */ cost?: number;
  };
  createdAt?: string;
  /** Numbered citations (lib/messages/citations.ts): sent while the turn streams, rebuilt from rows on reload. */
  citations?: CitationView[];
  /** The provider that answers (the fallback's once it took over); for the usage record. */
  providerId?: string;
  /** The fallback took over: turn-stream.ts turns this into a `FellBack` notice and removes it. */
  fellBack?: NoticeData;
  /**
   * The server that wrote the answer stopped and another instance goes on with it (stop-turns.ts): sent
   * live with `interrupted` and read back while it waits; `withinMs` is how long that instance waits for
   * the answer to be stored before it gives up, so a page knows how long to keep looking.
   */
  handedOver?: { withinMs: number };
  /**
   * Sent live at the start of an answer to a new question: the id the question is stored under, which the
   * page's copy of it takes (use-stored-question-id.ts), so it keeps its place (and an open editor) when
   * the stored messages replace the live ones after the turn.
   */
  questionId?: string;
  /** This message's place among its versions (branches.ts), when it has more than one. */
  versions?: { index: number; count: number };
};

/** The chat's title as it changes during its first turn: sent as a transient part, never stored as a block. */
export type TitleData = { title: string };

/** An MCP resource attached to a user's message (mcp-catalog.ts): its text (cut) or image, as read when sent. */
export type ResourceData = { serverId: string; serverName: string; uri: string; mimeType?: string; text?: string; image?: string; truncatedFrom?: number };

export type ParleyDataParts = { error: ErrorData; notice: NoticeData; title: TitleData; resource: ResourceData };
export type ParleyUIMessage = UIMessage<ParleyMetadata, ParleyDataParts>;
export type ParleyPart = ParleyUIMessage["parts"][number];
