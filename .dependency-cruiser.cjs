// The directions of dependencies between Parley's folders (in words: docs/architecture.md, "Layers and
// their rules"), checked by `npm run lint:deps`, which `npm run lint` and so `npm test` run: a
// violation fails the build.
// Type-only imports (`import type`, or every name marked `type`) are seen (tsPreCompilationDeps) and
// told apart from value imports, so `components -> lib` may carry types and nothing else (values only
// from lib/format, the pure module both sides share; eslint.config.mjs keeps it importing only itself).

/** Tests and the code that only tests use: specs, e2e, test support, scripts run by hand or by CI. */
const TESTS = "(\\.test\\.tsx?$|\\.spec\\.ts$|^e2e/|^test/|^scripts/|^bench/)";
/** Test support: where it must live (test/support/) and the names it had in lib/. */
const TEST_SUPPORT = "(^test/support/|^lib/[a-z/-]*(test-[a-z-]+|turn-harness|crash-child)\\.ts$)";
/** lib's folders, one per concept; the files at lib's top level (config, errors, ...) are its kernel. */
const libFolder = (name) => `^lib/${name}/`;
/** Next's request-time APIs: the request's headers and cookies, redirects and interrupts, revalidation. */
const NEXT_REQUEST_APIS = "^node_modules/next/(headers|navigation|cache)\\.";
/** Pure values the server and the browser share (formatting, wire formats): components may import them. */
const LIB_PURE = "^lib/format/";
/** components' layers, ui <- shared <- features: the kit of primitives, the widgets several features use; every other folder is a feature. */
const COMPONENTS_UI = "^components/ui/";
const COMPONENTS_SHARED = "^components/shared/";
/**
 * A turn's parts, top to bottom: the pipeline, MCP in a chat, chat records, knowledge bases, projects, tools,
 * approvals, stored messages. lib/knowledge sits above projects (a project's bases follow the project's
 * access rules, lib/projects) and below chat and turn, which will offer its search as a tool of a chat.
 */
const TURN_LAYERS = ["turn", "mcp-chat", "chat", "knowledge", "projects", "tools", "approvals", "messages"];
/** Folders below all of them: they serve a turn and never call back into it. */
const BELOW_TURNS = ["mcp", "providers", "db", "security", "identity", "usage", "observability"];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle between modules: split out what both need, or invert one direction.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-not-to-app-or-components",
      severity: "error",
      comment: "lib is the domain: it never imports routes (app/), React components or the start-up shims.",
      from: { path: "^lib/" },
      to: { path: ["^app/", "^components/", "^instrumentation\\.ts$", "^proxy\\.ts$"] },
    },
    {
      name: "lib-not-to-react",
      severity: "error",
      comment: "lib is React-free: a React-cached accessor belongs in app/.",
      from: { path: "^lib/" },
      to: { path: "^node_modules/((@types/)?react|(@types/)?react-dom|@ai-sdk/react)/" },
    },
    {
      name: "lib-not-to-next-request-apis",
      severity: "error",
      comment:
        "lib takes the request as plain values (Headers, a cookie's value, a TeamContext): reading it, redirects, interrupts and revalidation are app/'s (app/_server/).",
      from: { path: "^lib/", pathNot: TESTS },
      to: { path: NEXT_REQUEST_APIS },
    },
    {
      name: "app-not-to-db",
      severity: "error",
      comment: "app/ asks lib for data: the Prisma client (lib/db) is lib's, so every query is a named lib function.",
      from: { path: "^app/", pathNot: TESTS },
      to: { path: libFolder("db") },
    },
    {
      name: "components-to-lib-types-only",
      severity: "error",
      comment: "components import only types from lib, and values only from lib/format: the rest comes in as props, or from app/ (server actions).",
      from: { path: "^components/" },
      to: { path: "^lib/", pathNot: LIB_PURE, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "components-not-to-app",
      severity: "error",
      comment: "components are used by app/, not the other way round.",
      from: { path: "^components/" },
      to: { path: "^app/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "components-ui-is-the-kit",
      severity: "error",
      comment: "components/ui is the kit of primitives: it imports no other components folder.",
      from: { path: COMPONENTS_UI },
      to: { path: "^components/", pathNot: COMPONENTS_UI },
    },
    {
      name: "components-shared-only-to-ui",
      severity: "error",
      comment: "components/shared holds what several features use: it builds on ui alone, never on a feature.",
      from: { path: COMPONENTS_SHARED },
      to: { path: "^components/", pathNot: [COMPONENTS_UI, COMPONENTS_SHARED] },
    },
    {
      name: "components-feature-not-to-feature",
      severity: "error",
      comment:
        "A feature folder (chat, shell, admin, ...) uses ui, shared and itself, never another feature: a widget two features need moves to components/shared.",
      from: { path: "^components/(?!ui/|shared/)([^/]+)/" },
      to: { path: "^components/", pathNot: "^components/($1|ui|shared)/" },
    },
    {
      name: "no-circular-components-folders",
      severity: "error",
      comment: "components' folders (subfolders too) depend one way, type-only imports included: move what both sides need to the layer below.",
      scope: "folder",
      from: { path: "^components/" },
      to: { path: "^components/", circular: true },
    },
    {
      name: "components-subfolder-below-its-folder",
      severity: "error",
      comment:
        "A subfolder (chat/attachments, admin/providers) serves its folder and never imports the folder's own files: the folder rule does not see a cycle between a folder and its parent.",
      from: { path: "^components/([^/]+)/[^/]+/" },
      to: { path: "^components/$1/[^/]+$" },
    },
    {
      name: "test-support-only-from-tests",
      severity: "error",
      comment: "Test servers, upstreams, harnesses and databases are for tests, never for the app.",
      from: { pathNot: TESTS },
      to: { path: TEST_SUPPORT },
    },
    {
      name: "test-support-not-in-lib",
      severity: "error",
      comment: "Test support lives in test/support/, not in lib/ (lib is what ships).",
      from: {},
      to: { path: "^lib/[a-z/-]*(test-[a-z-]+|turn-harness|crash-child)\\.ts$" },
    },
    // A turn's parts, top to bottom (docs/architecture.md, "Where each concept lives"): each imports only
    // the ones after it.
    ...TURN_LAYERS.slice(1).map((layer, i) => ({
      name: `${layer}-not-up-to-${TURN_LAYERS.slice(0, i + 1).join("-")}`,
      severity: "error",
      comment: `lib/${layer} serves the layers above it (${TURN_LAYERS.slice(0, i + 1).join(", ")}) and never imports them.`,
      from: { path: libFolder(layer), pathNot: TESTS },
      to: { path: `^lib/(${TURN_LAYERS.slice(0, i + 1).join("|")})/` },
    })),
    {
      name: "turn-only-from-startup",
      severity: "error",
      comment: "lib/turn runs a turn over every other concept: in lib only start-up calls it (app/ may).",
      from: { path: "^lib/", pathNot: [TESTS, libFolder("turn"), "^lib/startup\\.ts$"] },
      to: { path: libFolder("turn") },
    },
    {
      name: "mcp-not-to-identity",
      severity: "error",
      comment: "lib/mcp speaks the protocol; whose credentials a connection uses is lib/identity's, which builds on it.",
      from: { path: libFolder("mcp"), pathNot: TESTS },
      to: { path: libFolder("identity") },
    },
    {
      name: "below-turns-not-to-turn-layers",
      severity: "error",
      comment: "The folders a turn's parts use (MCP, providers, storage, security, ...) never import those parts.",
      from: { path: `^lib/(${BELOW_TURNS.join("|")})/`, pathNot: TESTS },
      to: { path: `^lib/(${TURN_LAYERS.join("|")})/` },
    },
    {
      name: "auth-not-to-teams",
      severity: "error",
      comment: "lib/auth says who is calling; lib/teams (memberships, the team a request acts in) builds on it.",
      from: { path: libFolder("auth"), pathNot: TESTS },
      to: { path: libFolder("teams") },
    },
    {
      name: "db-not-to-other-lib-folders",
      severity: "error",
      comment: "lib/db is the bottom: everything in lib may use it, it uses no other lib folder (lib's kernel files, e.g. config.ts, are allowed).",
      from: { path: libFolder("db"), pathNot: TESTS },
      to: { path: "^lib/[^/]+/", pathNot: libFolder("db") },
    },
    {
      name: "kernel-not-to-lib-folders",
      severity: "error",
      comment:
        "lib's kernel (config, errors, validation, http, ...) is used by every folder and uses none but lib/db; start-up and health put the parts together.",
      from: { path: "^lib/[^/]+\\.ts$", pathNot: ["\\.test\\.ts$", "^lib/(startup|health)\\.ts$"] },
      to: { path: "^lib/[^/]+/", pathNot: "^lib/db/" },
    },
    {
      name: "not-to-startup",
      severity: "error",
      comment: "Start-up depends on the domain (auth, recovery, seeding), never the other way: only the boot shims, routes and tests call it.",
      from: { path: "^lib/", pathNot: [TESTS, "^lib/startup\\.ts$"] },
      to: { path: "^lib/startup\\.ts$" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^lib/db/generated/", "^\\.next"] },
    includeOnly: {
      path: [
        "^app/",
        "^components/",
        "^lib/",
        "^test/",
        "^e2e/",
        "^scripts/",
        "^bench/",
        "^instrumentation\\.ts$",
        "^proxy\\.ts$",
        "^node_modules/((@types/)?react|(@types/)?react-dom|@ai-sdk/react)/",
        NEXT_REQUEST_APIS,
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
