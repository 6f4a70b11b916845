// Preloaded by scripts/start.mjs before Next.js starts: stamps every HTTP request with the address of
// the connection it came on (x-parley-connection-address), replacing anything a client sent under
// that name, and marks the process as stamped. Next.js exposes no connection address to route
// handlers or server actions, and its own X-Forwarded-For keeps whatever a client sent; the app reads
// this header instead (lib/security/client-address.ts). It also says whether the request came with
// forwarding headers of its own (x-parley-forwarded: 1 or 0), before Next.js adds its own: a request
// through a reverse proxy is not one from this machine, even on a loopback connection.
import http from "node:http";

const HEADER = "x-parley-connection-address";
const FORWARDED = "x-parley-forwarded";
const FORWARDING = ["x-forwarded-for", "x-forwarded-host", "x-real-ip", "forwarded"];
globalThis[Symbol.for("parley.connectionAddress")] = true;

const createServer = http.createServer;
http.createServer = function (...args) {
  const at = args.findIndex((a) => typeof a === "function");
  if (at >= 0) {
    const listener = args[at];
    args[at] = function (req, res) {
      req.headers[HEADER] = req.socket?.remoteAddress ?? "";
      req.headers[FORWARDED] = FORWARDING.some((h) => h in req.headers) ? "1" : "0";
      return listener.call(this, req, res);
    };
  }
  return createServer.apply(this, args);
};
