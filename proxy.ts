// Runs before Next.js routes a request (Next 16's successor to middleware.ts). In order:
// 1. a path with broken percent-encoding or a NUL byte: 400 (Next would answer 500);
// 2. a state-changing request from another origin (CSRF): 403;
// 3. a server-action request over the size limit (413) or in a shape React's client never sends (400);
// 4. pages get a Content-Security-Policy with a fresh nonce (lib/security/headers.ts).
import { NextResponse, type NextRequest } from "next/server";
import { publicUrl } from "@/lib/config";
import { actionBodyProblem, declaredTooLarge, isActionRequest, tooLarge } from "@/lib/security/action-guard";
import { contentSecurityPolicy, newNonce } from "@/lib/security/headers";
import { crossOriginProblem, pathProblem, rawPathOf, type Refusal } from "@/lib/security/request-guard";

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { method, headers } = request;
  const pathname = request.nextUrl.pathname;
  const refusal =
    pathProblem(rawPathOf(request.url)) ??
    crossOriginProblem({
      method,
      host: headers.get("host"),
      origin: headers.get("origin"),
      secFetchSite: headers.get("sec-fetch-site"),
      publicUrl: publicUrl(),
    }) ??
    (await actionProblem(request, pathname));
  if (refusal) return refuse(refusal);
  if (pathname.startsWith("/api/") || pathname.startsWith("/_next/")) return NextResponse.next();

  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https: publicUrl()?.startsWith("https:") });
  const requestHeaders = new Headers(headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

async function actionProblem(request: NextRequest, pathname: string): Promise<Refusal | undefined> {
  const info = { method: request.method, pathname, contentType: request.headers.get("content-type"), nextAction: request.headers.get("next-action") };
  if (!isActionRequest(info)) return undefined;
  if (declaredTooLarge(request.headers.get("content-length"))) return tooLarge();
  return actionBodyProblem(await request.clone().arrayBuffer(), info);
}

function refuse(r: Refusal): NextResponse {
  return NextResponse.json({ error: { code: r.code, message: r.message } }, { status: r.status, headers: { "Cache-Control": "no-store" } });
}

export const config = {
  // Everything but built assets; prefetches included (they carry no body and need no nonce, but are cheap).
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
