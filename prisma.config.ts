// Prisma CLI configuration. The app never reads this: lib/db/client.ts picks the driver at run time.
// The URL falls back to a placeholder so `prisma generate` works with PGlite (no DATABASE_URL).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/parley" },
});
