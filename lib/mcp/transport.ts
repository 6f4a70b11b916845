// The transport for one MCP server's settings: Streamable HTTP, SSE, or a stdio child process. HTTP
// and SSE go through the outbound fetch (only to addresses the address rules allow), with the message
// size cap, answers for dropped calls and the renewal of a member's refused token; a stdio child's
// stderr is kept (never printed) for error messages.
import { SseError, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createOutboundFetch, outboundFetch, type OutboundOptions } from "../security/outbound-fetch";
import { boundedFetch } from "./bounded-fetch";
import { stdioAllowed, type McpServerConfig } from "./config";
import { answerDroppedCalls } from "./dropped-calls";
import { McpFailure } from "./failures";
import { renewingRefusedTokens } from "./refused-tokens";
import { standardResponses } from "./standard-response";

const STDERR_KEEP = 2000;

/** What a session noticed along the way, for its error messages. */
export type SessionNotes = { stderr: string; refused?: Error };

export function makeTransport(config: McpServerConfig, notes: SessionNotes, outbound?: OutboundOptions): Transport {
  if (config.transport === "stdio") {
    if (!stdioAllowed())
      throw new McpFailure("config", "stdio MCP servers are turned off on this instance (the operator sets PARLEY_ALLOW_STDIO_MCP=1 to allow them).");
    if (!config.command) throw new McpFailure("config", "No command is set for this stdio server.");
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
      stderr: "pipe",
    });
    // Keep the end of the child's stderr for error messages; never print it (it may echo secrets).
    transport.stderr?.on("data", (chunk: Buffer) => {
      notes.stderr = (notes.stderr + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    return transport;
  }
  if (!config.url) throw new McpFailure("config", "No URL is set for this server.");
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers ?? {} };
  // Every connection is made to an address checked against the address rules as it opens.
  const net = standardResponses(outbound ? createOutboundFetch(outbound) : outboundFetch());
  if (config.transport === "sse") {
    return new SSEClientTransport(url, {
      requestInit,
      authProvider: config.authProvider,
      fetch: renewingRefusedTokens(net, config.authProvider),
      // The SSE GET goes through EventSource (the SDK adds the headers), which keeps only the text of
      // a failure: a refusal by the address rules is noted here. Oversized events are dropped.
      eventSourceInit: {
        fetch: boundedFetch(undefined, (u, init) =>
          net(u, init).catch((err: Error) => {
            if ((err.cause as { code?: string } | undefined)?.code === "EPARLEYREFUSED") notes.refused = err;
            throw err;
          }),
        ),
      },
    });
  }
  return new StreamableHTTPClientTransport(url, {
    requestInit,
    authProvider: config.authProvider,
    // No message from the server is read past 8 × PARLEY_MAX_TOOL_RESULT_CHARS bytes (bounded-fetch.ts);
    // a call's answer stream that breaks before the answer ends the call at once (dropped-calls.ts).
    // A member's refused token is renewed once for all calls refused with it (refused-tokens.ts).
    fetch: renewingRefusedTokens(answerDroppedCalls(boundedFetch(undefined, net)), config.authProvider),
    reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
}

/**
 * Whether a transport error means the session is gone: the SSE transport's event stream broke (an
 * SSE session lives and dies with it), or the Streamable HTTP transport gave up reconnecting a
 * stream (the server is not there any more). Says why, or undefined for errors that pass.
 */
export function connectionLost(err: Error): string | undefined {
  if (err instanceof SseError) return err.message;
  if (/^Maximum reconnection attempts/.test(err.message)) return `its event stream broke and could not be reopened`;
  return undefined;
}
