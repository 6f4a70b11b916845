// Test support for several app instances behind a real load balancer: nginx (Debian's package) in
// front of separate `npm start` processes, round-robin, no sticky sessions; each answer says which
// instance served it (`X-Parley-Instance`, nginx's $upstream_addr). With PARLEY_TEST_IMAGE set, each
// instance is a container of that image instead (deploy/test-compose.sh). Not imported by the app.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

/** nginx from PARLEY_TEST_NGINX, else the first of the usual places that exists. */
export function nginxBinary(): string | undefined {
  const candidates = [process.env.PARLEY_TEST_NGINX, "/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"];
  return candidates.find((p): p is string => !!p && fs.existsSync(p));
}

export type Proc = { child: ChildProcess; stop(signal?: NodeJS.Signals): Promise<void> };

/** `child` as a Proc; `kill` sends a signal its own way (a container's through the runtime). */
function proc(child: ChildProcess, kill = (signal: NodeJS.Signals) => void child.kill(signal)): Proc {
  return {
    child,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        kill(signal);
      }),
  };
}

/** nginx on `port`, balancing round-robin over `upstreams` (ports on 127.0.0.1), streaming unbuffered. */
export function startNginx(dir: string, port: number, upstreams: number[]): Proc {
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  const tmp = path.join(dir, "tmp");
  const conf = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  upstream parley {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://parley;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
      add_header X-Parley-Instance $upstream_addr always;
    }
  }
}`;
  const file = path.join(dir, "nginx.conf");
  fs.writeFileSync(file, conf);
  const child = spawn(nginxBinary()!, ["-c", file, "-p", dir, "-e", path.join(dir, "error.log")], { stdio: ["ignore", "ignore", "inherit"] });
  return proc(child);
}

/**
 * One app instance (`scripts/start.mjs`, one process) on `port` with its own data directory; what it
 * prints, errors included, goes to `logFile` (appended) when given, else its errors to the test's output.
 */
export function startInstance(port: number, env: Record<string, string | undefined>, logFile?: string): Proc {
  const image = process.env.PARLEY_TEST_IMAGE?.trim();
  const log = logFile ? fs.openSync(logFile, "a") : "ignore";
  const stdio: ["ignore", typeof log, typeof log | "inherit"] = ["ignore", log, typeof log === "number" ? log : "inherit"];
  const args = ["scripts/start.mjs", "-p", String(port), "-H", "127.0.0.1"];
  const started = image
    ? startContainer(image, args, { ...appSettings(process.env), PARLEY_PROCESSES: "1", ...env }, stdio)
    : proc(spawn(process.execPath, args, { stdio, env: { ...process.env, PARLEY_PROCESSES: "1", ...env } }));
  if (typeof log === "number") fs.closeSync(log);
  return started;
}

/** The app's own settings in `env` (what a container is given of the test's environment): not the tests' own. */
const appSettings = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("PARLEY_") && k !== "PARLEY_TEST_IMAGE" && k !== "PARLEY_E2E_BALANCED"));

let containers = 0;

/**
 * The instance as a container of `image` (podman, or PARLEY_TEST_PODMAN's command), on the host's
 * network, its data directory mounted at the same path and owned by the image's user (uid 10001).
 * Signals go to the container as a runtime sends them (`podman kill`), so SIGTERM is a rolling
 * restart's stop and SIGKILL a crash.
 */
function startContainer(
  image: string,
  args: string[],
  env: Record<string, string | undefined>,
  stdio: ["ignore", number | "ignore", number | "ignore" | "inherit"],
): Proc {
  const [podman, ...prefix] = (process.env.PARLEY_TEST_PODMAN?.trim() || "podman").split(/\s+/);
  const name = `parley-test-${process.pid}-${++containers}`;
  const dataDir = env.PARLEY_DATA_DIR;
  if (dataDir) fs.chownSync(dataDir, 10001, 10001);
  const settings = Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : ["-e", `${k}=${v}`]));
  const volume = dataDir ? ["-v", `${dataDir}:${dataDir}`] : [];
  const child = spawn(podman, [...prefix, "run", "--rm", "--name", name, "--network", "host", ...volume, ...settings, image, "node", ...args], { stdio });
  return proc(child, (signal) => void spawn(podman, [...prefix, "kill", "--signal", signal, name], { stdio: "ignore" }));
}

/** `instance`: the one that answered (when the balancer tried a dead one first, it names both; the last answered). */
export type Reply = { status: number; instance: string; text: string };

const servedBy = (res: http.IncomingMessage) =>
  String(res.headers["x-parley-instance"] ?? "")
    .split(", ")
    .at(-1)!;

/**
 * One request on a connection of its own (so the balancer picks an instance for it). With `instance`
 * ("127.0.0.1:port"), it goes straight to that instance as the balancer would forward it (the public
 * origin's Host and Origin): a request that must reach one instance does not depend on the
 * round-robin's turn, which the browser's own requests move.
 */
export function call(
  origin: string,
  method: string,
  url: string,
  opts: { cookie?: string; body?: unknown; instance?: string; onResponse?: (instance: string) => void; onData?: (text: string) => void } = {},
): Promise<Reply> {
  const target = opts.instance ? `http://${opts.instance}` : origin;
  const served = (res: http.IncomingMessage) => opts.instance ?? servedBy(res);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${target}${url}`,
      { method, agent: false, headers: { cookie: opts.cookie ?? "", origin, host: new URL(origin).host, "content-type": "application/json" } },
      (res) => {
        let text = "";
        opts.onResponse?.(served(res));
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
          opts.onData?.(text);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, instance: served(res), text }));
        res.on("error", reject);
        res.on("aborted", () => reject(new Error("the connection was cut")));
      },
    );
    req.on("error", reject);
    req.end(opts.body === undefined ? undefined : JSON.stringify(opts.body));
  });
}
