import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "e2e/.data-*/**",
      "lib/db/generated/**",
      "data/**",
      "e2e/.data/**",
      "node_modules/**",
      "test-results/**",
      "test-results-*/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    // lib/format runs in the browser too (components import it): it imports only its own modules, so no
    // database, node:* or Next.js server API can reach a client bundle through it.
    files: ["lib/format/**/*.ts"],
    ignores: ["lib/format/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(?!\\./)", message: "lib/format imports only its own modules (./…)." }] }],
    },
  },
];

export default config;
