// Run-time settings, in one place: every variable the app reads from the environment is declared
// here with its zod schema and default, and read through `config()`. A bad value stops start-up
// (lib/startup.ts calls `config()` first) with a message naming the variable.
// docs/configuration.md documents this schema; keep the two together.
import net from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";

/** An empty or blank variable counts as unset. */
const unsetIfBlank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);
const optionalString = z.preprocess(unsetIfBlank, z.string().optional());
const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    unsetIfBlank,
    z
      .string()
      .regex(/^-?\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );
const flag = z
  .preprocess(unsetIfBlank, z.enum(["0", "1", "true", "false"], "must be 1 or true (on), 0 or false (off)").default("0"))
  .transform((v) => v === "1" || v === "true");
/** A switch that is on unless set to 0 or false. */
const onFlag = z
  .preprocess(unsetIfBlank, z.enum(["0", "1", "true", "false"], "must be 1 or true (on), 0 or false (off)").default("1"))
  .transform((v) => v === "1" || v === "true");
const url = (protocols: string[]) =>
  z.preprocess(
    unsetIfBlank,
    z
      .string()
      .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), `must be a ${protocols.join(" or ")} URL`)
      .optional(),
  );

/** An address (`10.0.0.1`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
const addressOrRange = (v: string) => (v.includes("/") ? net.isIP(v.slice(0, v.indexOf("/"))) !== 0 && ipaddr.isValidCIDR(v) : net.isIP(v) !== 0);
const addressList = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  z.array(z.string().refine(addressOrRange, "must be IP addresses or CIDR ranges separated by commas, e.g. 10.0.0.1,fd00::/8")),
);

/** The variables, by name; each entry is documented in docs/configuration.md. */
const schema = z.object({
  PARLEY_DATA_DIR: z.preprocess(unsetIfBlank, z.string().default("./data")),
  DATABASE_URL: url(["postgresql:", "postgres:"]),
  PARLEY_DB_POOL_SIZE: int(10, 1, 1000),
  PARLEY_MIGRATIONS_DIR: z.preprocess(unsetIfBlank, z.string().default("prisma/migrations")),
  PARLEY_SECRET_KEY: optionalString,
  BETTER_AUTH_SECRET: optionalString,
  PARLEY_URL: url(["http:", "https:"]),
  PARLEY_TRUSTED_PROXIES: addressList,
  BETTER_AUTH_URL: url(["http:", "https:"]),
  REDIS_URL: url(["redis:", "rediss:"]),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: url(["http:", "https:"]),
  PARLEY_DEFAULT_MODEL: z.preprocess(unsetIfBlank, z.string().default("gpt-4.1-mini")),
  PARLEY_PROVIDER_KIND: z.preprocess(
    (v) => (typeof unsetIfBlank(v) === "string" ? (unsetIfBlank(v) as string).toLowerCase() : undefined),
    z.enum(["responses", "openai_responses", "chat", "openai_chat", "compatible", "openai_compatible"], "must be responses, chat or compatible").optional(),
  ),
  PARLEY_MAX_MESSAGE_CHARS: int(32_000, 1, 10_000_000),
  PARLEY_CHAT_RATE_LIMIT: int(30, 1),
  PARLEY_PROVIDER_IDLE_TIMEOUT_MS: int(60_000, 100),
  PARLEY_STREAM_FRAME_MS: int(16, 0, 1000),
  PARLEY_STEP_LIMIT: int(20, 1, 1000),
  PARLEY_MAX_ACTIVE_TURNS: int(100, 1),
  PARLEY_TURN_QUEUE_MS: int(5_000, 0),
  PARLEY_ALLOW_STDIO_MCP: flag,
  PARLEY_KNOWLEDGE_INDEXER: onFlag,
  PARLEY_ALLOW_PRIVATE_URLS: flag,
  PARLEY_FORCE_PASSWORD_SIGN_IN: flag,
  PARLEY_MCP_BACKOFF_MS: int(1_000, 1),
  PARLEY_MAX_TOOL_RESULT_CHARS: int(1_000_000, 1_000, 100_000_000),
  PARLEY_MAX_ANSWER_CHARS: int(1_000_000, 1_000, 100_000_000),
  PARLEY_HEARTBEAT_MS: int(30_000, 100),
  // How long SIGTERM/SIGINT may take (scripts/graceful-stop.mjs reads it too, before the app starts).
  PARLEY_SHUTDOWN_MS: int(10_000, 1_000, 600_000),
  PARLEY_MAX_ATTACHMENT_BYTES: int(10 * 1024 * 1024, 1_024, 100 * 1024 * 1024),
  PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES: int(20 * 1024 * 1024, 1_024, 500 * 1024 * 1024),
  PARLEY_MAX_UNSENT_ATTACHMENTS: int(20, 1, 1_000),
  PARLEY_MAX_UNSENT_ATTACHMENT_BYTES: int(100 * 1024 * 1024, 1_024, 10 * 1024 * 1024 * 1024),
  // Email through the operator's SMTP server (lib/email/mailer.ts): SMTP_URL, or the separate settings.
  SMTP_URL: url(["smtp:", "smtps:"]),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.preprocess(unsetIfBlank, z.string().regex(/^\d+$/, "must be a port number").transform(Number).pipe(z.number().min(1).max(65535)).optional()),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_SECURE: z.preprocess(unsetIfBlank, z.enum(["0", "1", "true", "false"], "must be 1 or true (TLS from the start), 0 or false (STARTTLS)").optional()),
  SMTP_FROM: optionalString,
  // Operators: /api/metrics answers only with this bearer token (unset: the endpoint is off).
  METRICS_TOKEN: z.preprocess(unsetIfBlank, z.string().min(16, "must be at least 16 characters").optional()),
  // Traces over OTLP/HTTP when set (the exporter reads the other OTEL_EXPORTER_OTLP_* variables itself).
  OTEL_EXPORTER_OTLP_ENDPOINT: url(["http:", "https:"]),
  OTEL_SERVICE_NAME: z.preprocess(unsetIfBlank, z.string().default("parley")),
});

type Env = z.infer<typeof schema>;

/** The settings the app uses, derived from the variables. */
export type Config = Env & {
  dataDir: string;
  /** PARLEY_URL, or BETTER_AUTH_URL as a fallback, without a trailing slash. */
  publicUrl?: string;
};

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const NAMES = Object.keys(schema.shape) as (keyof Env)[];
const KEY = Symbol.for("parley.config");
type Holder = { [KEY]?: { fingerprint: string; config: Config } };
const holder = globalThis as Holder;

/** A bad value as the message shows it: a URL's password is not printed into the logs, nor a long value whole. */
function shown(value: string | undefined): string {
  const v = (value ?? "").replace(/(\/\/[^/@:\s]*):[^/@\s]*@/, "$1:***@");
  return v.length > 80 ? `${v.slice(0, 77)}...` : v;
}

/** Parses a set of variables; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message} (got "${shown(env[String(i.path[0])])}")`));
  }
  const c = parsed.data;
  const pub = c.PARLEY_URL ?? c.BETTER_AUTH_URL;
  return {
    ...c,
    dataDir: path.resolve(/* turbopackIgnore: true */ c.PARLEY_DATA_DIR),
    publicUrl: pub ? pub.replace(/\/+$/, "") : undefined,
  };
}

/**
 * The current settings. Parsed once and again only when a variable changed (tests change them), so
 * reading a setting costs a string comparison.
 */
export function config(): Config {
  const fingerprint = NAMES.map((n) => process.env[n] ?? "").join("\0");
  const cached = holder[KEY];
  if (cached && cached.fingerprint === fingerprint) return cached.config;
  const fresh = parseConfig(process.env);
  holder[KEY] = { fingerprint, config: fresh };
  return fresh;
}

export function dataDir(): string {
  return config().dataDir;
}

export type DatabaseKind = "pglite" | "postgresql";

export function databaseUrl(): string | undefined {
  return config().DATABASE_URL;
}

export function databaseKind(): DatabaseKind {
  return databaseUrl() ? "postgresql" : "pglite";
}

/** Public URL of the app, when the operator sets one (required behind a proxy or on another host). */
export function publicUrl(): string | undefined {
  return config().publicUrl;
}
