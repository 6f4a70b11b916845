// Test support for several app instances behind a real load balancer: nginx (Debian's package) in
// front of separate `npm start` processes, round-robin, no sticky sessions; each answer says which
// instance served it (`X-Parley-Instance`, nginx's $upstream_addr). Not imported by the app.
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

function proc(child: ChildProcess): Proc {
  return {
    child,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
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
  const log = logFile ? fs.openSync(logFile, "a") : "ignore";
  const child = spawn(process.execPath, ["scripts/start.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    stdio: ["ignore", log, typeof log === "number" ? log : "inherit"],
    env: { ...process.env, PARLEY_PROCESSES: "1", ...env },
  });
  if (typeof log === "number") fs.closeSync(log);
  return proc(child);
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
