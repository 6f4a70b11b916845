// The deployment files agree with the app and with each other (read as text: no YAML parser is a
// dependency). Building and running them needs container tools: docs/operations.md says how. Here:
// the Dockerfile's base is Node 24 and its start is the server's; the build context keeps what the
// build reads; compose's grace period outlasts the orderly stop and nginx streams unbuffered with room
// for a message's attachments; the Kubernetes probes name routes that exist and the pod's grace period
// outlasts preStop plus the orderly stop; every manifest is valid against Kubernetes' own schemas
// (kubernetes-models, 1.27's OpenAPI).
import fs from "node:fs";
import path from "node:path";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Secret, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseConfig } from "../lib/config";

const read = (f: string) => fs.readFileSync(f, "utf8");
const defaults = parseConfig({});
/** The first capture of `re` in `text`, or a failed expectation naming what was looked for. */
function find(text: string, re: RegExp): string {
  const m = text.match(re);
  expect(m, String(re)).not.toBeNull();
  return m![1];
}

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");

  it("builds on a Node of package.json's engines, runs as a user, starts the server as PID 1 and checks its health", () => {
    const major = find(read("package.json"), /"node": ">=(\d+)"/);
    expect(find(dockerfile, /^ARG NODE_IMAGE=(\S+)$/m)).toBe(`node:${major}-bookworm-slim`);
    expect(find(dockerfile, /^USER (\S+)$/m)).not.toMatch(/^(root|0)$/);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "scripts\/start\.mjs"\]$/m);
    expect(find(dockerfile, /^HEALTHCHECK[\s\S]*?(\/api\/health)'/m)).toBe("/api/health");
  });

  it("copies into the final stage only files the repository has or the build makes", () => {
    const copied = [...dockerfile.matchAll(/^COPY --from=build (.+) \S+$/gm)].flatMap((m) => m[1].split(" "));
    for (const f of copied.map((c) => c.replace(/^\/app\//, ""))) {
      if (f === "node_modules" || f === ".next") continue;
      expect(fs.existsSync(f), f).toBe(true);
    }
  });

  it("keeps in the build context what the build reads", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const needed of [
      "app",
      "components",
      "lib",
      "prisma",
      "scripts",
      "package.json",
      "package-lock.json",
      "next.config.ts",
      "tsconfig.json",
      "instrumentation.ts",
      "proxy.ts",
      "postcss.config.mjs",
    ]) {
      expect(ignored, needed).not.toContain(needed);
    }
    expect(ignored).toEqual(expect.arrayContaining([".git", "node_modules", ".next", "data", "lib/db/generated"]));
  });
});

describe("compose.yaml and nginx", () => {
  const compose = read("compose.yaml");
  const nginx = read("deploy/nginx.conf.template");

  it("runs PostgreSQL, Redis, two instances and nginx, with one required secret key", () => {
    for (const service of ["postgres", "redis", "parley-a", "parley-b", "balancer"]) expect(compose).toMatch(new RegExp(`^  ${service}:`, "m"));
    expect(compose).toMatch(/PARLEY_SECRET_KEY: \$\{PARLEY_SECRET_KEY:\?/);
    const template = find(compose, /"\.\/(deploy\/[^:]+):\/etc\/nginx\/templates\//);
    expect(fs.existsSync(template)).toBe(true);
    // Only the balancer may say who the client is.
    expect(find(compose, /PARLEY_TRUSTED_PROXIES: (\S+)/)).toBe(find(compose, /ipv4_address: (\S+) \}/));
  });

  it("gives the orderly stop its time", () => {
    const shutdownMs = Number(find(compose, /PARLEY_SHUTDOWN_MS: "(\d+)"/));
    expect(Number(find(compose, /stop_grace_period: (\d+)s/)) * 1000).toBeGreaterThan(shutdownMs);
  });

  it("balances over both instances, streams unbuffered, waits for long answers and takes a message's attachments", () => {
    expect(nginx).toMatch(/server parley-a:3000 /);
    expect(nginx).toMatch(/server parley-b:3000 /);
    expect(nginx).toMatch(/proxy_buffering off;/);
    expect(Number(find(nginx, /proxy_read_timeout (\d+)s;/))).toBeGreaterThanOrEqual(300);
    expect(Number(find(nginx, /client_max_body_size (\d+)m;/)) * 1024 * 1024).toBeGreaterThan(defaults.PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES);
  });
});

describe("deploy/kubernetes", () => {
  const dir = "deploy/kubernetes";
  const deployment = read(path.join(dir, "deployment.yaml"));

  it("holds only objects that Kubernetes' schemas accept", () => {
    const models: Record<string, new (data: never) => { validate(): void }> = {
      "apps/v1 Deployment": Deployment,
      "apps/v1 StatefulSet": StatefulSet,
      "networking.k8s.io/v1 Ingress": Ingress,
      "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
      "v1 Secret": Secret,
      "v1 Service": Service,
    };
    const manifests = fs.readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    let checked = 0;
    for (const f of manifests) {
      for (const doc of parseAllDocuments(read(path.join(dir, f)))) {
        expect(doc.errors, f).toEqual([]);
        const object = doc.toJS() as { apiVersion: string; kind: string };
        const Model = models[`${object.apiVersion} ${object.kind}`];
        expect(Model, `${f}: ${object.apiVersion} ${object.kind} has no schema here`).toBeDefined();
        expect(() => new Model(object as never).validate(), f).not.toThrow();
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(manifests.length);
  });

  it("refuses a manifest Kubernetes would refuse (the check can fail)", () => {
    const [doc] = parseAllDocuments(deployment.replace(/containerPort: (\d+)/, 'containerPort: "$1"'));
    expect(() => new Deployment(doc.toJS()).validate()).toThrow(/containerPort must be integer/);
  });

  it("lists every manifest in its kustomization", () => {
    const kustomization = read(path.join(dir, "kustomization.yaml"));
    const manifests = fs.readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    for (const f of manifests) expect(kustomization, f).toContain(`  - ${f}`);
  });

  it("probes routes that exist: liveness without the database, readiness with it", () => {
    const probe = (name: string) => find(deployment, new RegExp(`${name}:\\s*\\n\\s*httpGet: \\{ path: (\\S+),`));
    expect(probe("livenessProbe")).toBe("/api/health/live");
    expect(probe("startupProbe")).toBe("/api/health/live");
    expect(probe("readinessProbe")).toBe("/api/health");
    for (const route of ["/api/health/live", "/api/health"]) expect(fs.existsSync(`app${route}/route.ts`), route).toBe(true);
  });

  it("outlasts preStop and the orderly stop before the kubelet kills, and reads the key from the Secret", () => {
    const grace = Number(find(deployment, /terminationGracePeriodSeconds: (\d+)/));
    const preStop = Number(find(deployment, /command: \["sleep", "(\d+)"\]/));
    const shutdownMs = Number(find(deployment, /name: PARLEY_SHUTDOWN_MS, value: "(\d+)"/));
    expect(grace * 1000).toBeGreaterThan(preStop * 1000 + shutdownMs);
    expect(deployment).toMatch(/secretKeyRef: \{ name: parley, key: PARLEY_SECRET_KEY \}/);
    expect(read(path.join(dir, "secret.yaml"))).toMatch(/^  PARLEY_SECRET_KEY: /m);
  });
});
