// A request as an app route handler receives it: Next.js hands handlers a Proxy of the request (to
// track dynamic use; next/dist/server/route-modules/app-route), whose getters and methods run on the
// real request, but which is not itself a Request to the runtime (`new Request(proxy)` throws on Node 24).
export function asRouteRequest(req: Request): Request {
  return new Proxy(req, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
