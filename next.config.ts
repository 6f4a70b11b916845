import type { NextConfig } from "next";
import { ACTION_BODY_LIMIT } from "./lib/security/action-guard";
import { NO_FRAMING_HEADER, NON_PAGE_CSP, STATIC_SECURITY_HEADERS } from "./lib/security/headers";
import { sourceHash } from "./scripts/source-hash.mjs";

const nextConfig: NextConfig = {
  // PGlite and its pgvector ship wasm and data files; bundled, Turbopack would copy them into the public static folder.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "pglite-prisma-adapter", "pg"],
  poweredByHeader: false,
  // A separate build directory lets several builds (e.g. parallel e2e runs) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The build id is the source's fingerprint: `npm start` builds only when the build on disk is not of this source.
  generateBuildId: () => sourceHash(),
  // forbidden() / unauthorized() in pages and actions answer with real 403 / 401 pages.
  // proxy.ts refuses larger action bodies with 413 first (Next itself would answer 500).
  // Turbopack's build cache makes the next build of a changed tree ~3× faster, but writing it costs ~30 s
  // of a first build: CI and the container image build once from a clean tree and set PARLEY_BUILD_CACHE=0.
  experimental: {
    authInterrupts: true,
    serverActions: { bodySizeLimit: ACTION_BODY_LIMIT },
    turbopackFileSystemCacheForBuild: process.env.PARLEY_BUILD_CACHE !== "0",
  },
  // Security headers on every response; pages also get a CSP with a nonce from proxy.ts.
  async headers() {
    return [
      { source: "/:path*", headers: STATIC_SECURITY_HEADERS },
      // An MCP Apps view's page (GET /api/chat/<id>/app) brings its own policy and is framed by the chat.
      { source: "/:path((?!api/chat/[^/]+/app$).*)", headers: [NO_FRAMING_HEADER] },
      { source: "/api/:path((?!chat/[^/]+/app$).*)", headers: [{ key: "Content-Security-Policy", value: NON_PAGE_CSP }] },
    ];
  },
  // `npm test` type-checks the whole project (tsc --noEmit) before building; no need to do it twice.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
