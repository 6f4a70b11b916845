// The configuration module: an operator who mistypes a setting learns which variable and why, a blank
// variable means "unset", and an unset one gets the default docs/configuration.md documents.
import { afterEach, describe, expect, it } from "vitest";
import { config, ConfigError, parseConfig } from "./config";

function refusal(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe("parseConfig", () => {
  it("gives the documented defaults when nothing is set", () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PARLEY_DATA_DIR: "./data",
      PARLEY_DB_POOL_SIZE: 10,
      PARLEY_MIGRATIONS_DIR: "prisma/migrations",
      PARLEY_DEFAULT_MODEL: "gpt-4.1-mini",
      PARLEY_MAX_MESSAGE_CHARS: 32_000,
      PARLEY_CHAT_RATE_LIMIT: 30,
      PARLEY_PROVIDER_IDLE_TIMEOUT_MS: 60_000,
      PARLEY_STREAM_FRAME_MS: 16,
      PARLEY_STEP_LIMIT: 20,
      PARLEY_MAX_ACTIVE_TURNS: 100,
      PARLEY_TURN_QUEUE_MS: 5_000,
      PARLEY_ALLOW_STDIO_MCP: false,
      PARLEY_MCP_BACKOFF_MS: 1_000,
      publicUrl: undefined,
    });
    expect(c.dataDir).toMatch(/[/\\]data$/);
    for (const unset of ["DATABASE_URL", "REDIS_URL", "PARLEY_SECRET_KEY", "PARLEY_PROVIDER_KIND", "OPENAI_API_KEY"] as const)
      expect(c[unset], unset).toBeUndefined();
  });

  it("reads set values, trimmed", () => {
    const c = parseConfig({
      PARLEY_STEP_LIMIT: " 7 ",
      PARLEY_TURN_QUEUE_MS: "0",
      PARLEY_ALLOW_STDIO_MCP: "true",
      PARLEY_PROVIDER_KIND: "Chat",
      DATABASE_URL: "postgres://u@db:5432/parley",
      PARLEY_URL: "https://chat.example.com//",
    });
    expect(c).toMatchObject({
      PARLEY_STEP_LIMIT: 7,
      PARLEY_TURN_QUEUE_MS: 0,
      PARLEY_ALLOW_STDIO_MCP: true,
      PARLEY_PROVIDER_KIND: "chat",
      DATABASE_URL: "postgres://u@db:5432/parley",
      publicUrl: "https://chat.example.com",
    });
    expect(parseConfig({ PARLEY_ALLOW_STDIO_MCP: "1" }).PARLEY_ALLOW_STDIO_MCP).toBe(true);
    expect(parseConfig({ PARLEY_ALLOW_STDIO_MCP: "0" }).PARLEY_ALLOW_STDIO_MCP).toBe(false);
    expect(parseConfig({ BETTER_AUTH_URL: "http://10.0.0.5:3000/" }).publicUrl).toBe("http://10.0.0.5:3000");
  });

  it("counts a blank variable as unset", () => {
    const c = parseConfig({ PARLEY_STEP_LIMIT: "", PARLEY_DATA_DIR: "  ", DATABASE_URL: " ", PARLEY_SECRET_KEY: "\t", PARLEY_ALLOW_STDIO_MCP: "" });
    expect(c).toMatchObject({ PARLEY_STEP_LIMIT: 20, PARLEY_DATA_DIR: "./data", PARLEY_ALLOW_STDIO_MCP: false });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PARLEY_SECRET_KEY).toBeUndefined();
  });

  it("refuses each kind of bad value, naming the variable, the rule and the value", () => {
    const cases: [Record<string, string>, string][] = [
      [{ PARLEY_STEP_LIMIT: "abc" }, 'PARLEY_STEP_LIMIT: must be a whole number (got "abc")'],
      [{ PARLEY_STEP_LIMIT: "2.5" }, 'PARLEY_STEP_LIMIT: must be a whole number (got "2.5")'],
      [{ PARLEY_MAX_ACTIVE_TURNS: "1e3" }, 'PARLEY_MAX_ACTIVE_TURNS: must be a whole number (got "1e3")'],
      [{ PARLEY_CHAT_RATE_LIMIT: "-5" }, 'PARLEY_CHAT_RATE_LIMIT: must be at least 1 (got "-5")'],
      [{ PARLEY_STEP_LIMIT: "0" }, 'PARLEY_STEP_LIMIT: must be at least 1 (got "0")'],
      [{ PARLEY_STEP_LIMIT: "1001" }, 'PARLEY_STEP_LIMIT: must be at most 1000 (got "1001")'],
      [{ PARLEY_ALLOW_STDIO_MCP: "yes" }, 'PARLEY_ALLOW_STDIO_MCP: must be 1 or true (on), 0 or false (off) (got "yes")'],
      [{ PARLEY_PROVIDER_KIND: "gemini" }, 'PARLEY_PROVIDER_KIND: must be responses, chat or compatible (got "gemini")'],
      [{ DATABASE_URL: "mysql://db/parley" }, 'DATABASE_URL: must be a postgresql: or postgres: URL (got "mysql://db/parley")'],
      [{ REDIS_URL: "127.0.0.1:6379" }, 'REDIS_URL: must be a redis: or rediss: URL (got "127.0.0.1:6379")'],
      [{ PARLEY_URL: "chat.example.com" }, 'PARLEY_URL: must be a http: or https: URL (got "chat.example.com")'],
      [{ OPENAI_BASE_URL: "ftp://models" }, 'OPENAI_BASE_URL: must be a http: or https: URL (got "ftp://models")'],
    ];
    for (const [env, expected] of cases) expect(refusal(env), JSON.stringify(env)).toContain(expected);
  });

  it("names every bad variable at once, so one restart fixes them all", () => {
    const message = refusal({ PARLEY_STEP_LIMIT: "abc", REDIS_URL: "nope", PARLEY_TURN_QUEUE_MS: "500" });
    expect(message).toContain("PARLEY_STEP_LIMIT");
    expect(message).toContain("REDIS_URL");
    expect(message).not.toContain("PARLEY_TURN_QUEUE_MS");
  });

  it("does not print a URL's password or a very long value into the logs", () => {
    const message = refusal({ DATABASE_URL: "mysql://parley:hunter2@db/parley", PARLEY_PROVIDER_KIND: "x".repeat(500) });
    expect(message).toContain('(got "mysql://parley:***@db/parley")');
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("x".repeat(81));
  });
});

describe("config()", () => {
  const saved = process.env.PARLEY_STEP_LIMIT;
  afterEach(() => {
    if (saved === undefined) delete process.env.PARLEY_STEP_LIMIT;
    else process.env.PARLEY_STEP_LIMIT = saved;
  });

  it("reads the process environment again when a variable changed", () => {
    process.env.PARLEY_STEP_LIMIT = "3";
    expect(config().PARLEY_STEP_LIMIT).toBe(3);
    process.env.PARLEY_STEP_LIMIT = "4";
    expect(config().PARLEY_STEP_LIMIT).toBe(4);
    process.env.PARLEY_STEP_LIMIT = "abc";
    expect(() => config()).toThrow(/PARLEY_STEP_LIMIT/);
  });
});
