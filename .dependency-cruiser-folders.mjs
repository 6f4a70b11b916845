// The second half of `npm run lint:deps`: no cycle between lib's folders (e.g. auth -> teams -> auth)
// in the code that ships. Tests are left out (an integration test of lib/providers may run a whole
// turn of lib/turn), and so are type-only imports (a type shared both ways costs nothing at run time:
// lib/providers takes lib/teams' TeamContext while lib/teams seeds a provider into a new team).
import base from "./.dependency-cruiser.cjs";

const rule = (name) => base.forbidden.find((r) => r.name === name);
const TESTS = rule("test-support-only-from-tests").from.pathNot;
const TEST_SUPPORT = rule("test-support-only-from-tests").to.path;

const config = {
  forbidden: [
    {
      name: "no-circular-lib-folders",
      severity: "error",
      comment: "lib's folders depend one way: move what both sides need below both, or invert one direction.",
      scope: "folder",
      from: { path: "^lib/" },
      to: { path: "^lib/", circular: true },
    },
  ],
  options: {
    ...base.options,
    tsPreCompilationDeps: false,
    exclude: { path: [...base.options.exclude.path, TESTS, TEST_SUPPORT] },
  },
};

export default config;
