import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files; bundled, Turbopack would copy them into the public static folder.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg"],
  poweredByHeader: false,
  // A separate build directory lets several builds (e.g. parallel e2e runs) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // forbidden() / unauthorized() in pages and actions answer with real 403 / 401 pages.
  experimental: { authInterrupts: true },
  // `npm test` type-checks the whole project (tsc --noEmit) before building; no need to do it twice.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
