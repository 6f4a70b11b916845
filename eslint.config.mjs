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
];

export default config;
