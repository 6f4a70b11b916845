// Preloaded by scripts/start.mjs before Next.js starts: stamps every HTTP request with the address of
// the connection it came on (x-parley-connection-address), replacing anything a client sent under
// that name, and marks the process as stamped. Next.js exposes no connection address to route
// handlers or server actions, and its own X-Forwarded-For keeps whatever a client sent; the app reads
// this header instead (lib/security/client-address.ts).
import http from "node:http";

const HEADER = "x-parley-connection-address";
globalThis[Symbol.for("parley.connectionAddress")] = true;

const createServer = http.createServer;
http.createServer = function (...args) {
  const at = args.findIndex((a) => typeof a === "function");
  if (at >= 0) {
    const listener = args[at];
    args[at] = function (req, res) {
      req.headers[HEADER] = req.socket?.remoteAddress ?? "";
      return listener.call(this, req, res);
    };
  }
  return createServer.apply(this, args);
};
