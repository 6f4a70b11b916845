import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files; bundled, Turbopack would copy them into the public static folder.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg"],
  poweredByHeader: false,
  // forbidden() / unauthorized() in pages and actions answer with real 403 / 401 pages.
  experimental: { authInterrupts: true },
};

export default nextConfig;
