import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files; bundled, Turbopack would copy them into the public static folder.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg"],
  poweredByHeader: false,
};

export default nextConfig;
