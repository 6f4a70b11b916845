import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const PALETTE =
  "/(^|[\\s:])(bg|text|border|ring|outline|fill|stroke|decoration|from|to|via)-(slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose)-[0-9]{2,3}\\b/";

const PALETTE_MESSAGE = "Use a colour token from app/globals.css (text-error, bg-info-soft, …), not a palette class.";

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
  {
    // Colours come from the semantic tokens in app/globals.css (light and dark from one place), never
    // from Tailwind's palette directly.
    files: ["app/**/*.tsx", "components/**/*.tsx", "components/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `Literal[value=${PALETTE}]`, message: PALETTE_MESSAGE },
        { selector: `TemplateElement[value.raw=${PALETTE}]`, message: PALETTE_MESSAGE },
      ],
    },
  },
];

export default config;
