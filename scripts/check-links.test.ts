// The documentation's link check (npm run lint): in a directory with good and dead links of every kind,
// it reports exactly the dead ones; headings slug as GitHub's do; and this repository has none.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { anchorsOf, findDeadLinks, githubSlug, markdownFiles } from "./check-links.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A directory holding `files` (path -> content). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-links-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("githubSlug", () => {
  it("slugs a heading as GitHub does", () => {
    expect(githubSlug("Where a turn's approval is stored, and what may call it")).toBe("where-a-turns-approval-is-stored-and-what-may-call-it");
    expect(githubSlug("What `npm test` runs")).toBe("what-npm-test-runs");
    expect(githubSlug("Cross-site requests (CSRF)")).toBe("cross-site-requests-csrf");
    expect(githubSlug("Admin → Usage")).toBe("admin--usage");
    expect(githubSlug("PARLEY_URL and [the docs](x.md)")).toBe("parley_url-and-the-docs");
  });

  it("numbers repeated headings, and takes setext headings and HTML ids", () => {
    expect([...anchorsOf('# A\n\n## Part\n\nSetext\n---\n\n## Part\n\n<a id="Here"></a>\n')]).toEqual(["a", "part", "setext", "part-1", "Here"]);
  });

  it("does not take headings from code blocks", () => {
    expect([...anchorsOf("# Real\n\n```sh\n# not a heading\n```\n")]).toEqual(["real"]);
  });
});

describe("findDeadLinks", () => {
  it("reports the dead links only: missing files and folders, missing headings, paths out of the repository", () => {
    const root = tree({
      "README.md": [
        "# Parley",
        "",
        "[good file](docs/guide.md), [good heading](docs/guide.md#second-part), [good folder](docs/), [same file](#parley)",
        "[dead file](docs/gone.md) and [dead heading](docs/guide.md#no-such-part)",
        "![good image](docs/shot.png) ![dead image](docs/none.png) [web](https://example.com/x.md) [mail](mailto:a@b.c)",
        "",
        "```md",
        "[in a code block](docs/gone.md)",
        "```",
        "",
        "`[in a code span](docs/gone.md)` and [out](../elsewhere.md)",
        "",
        "[ref]: docs/guide.md#the-guide",
        "[dead ref]: docs/old.md",
      ].join("\n"),
      "docs/guide.md": "# The guide\n\n## Second part\n\n[back](../README.md#parley) [dead back](../README.md#missing)\n",
      "docs/shot.png": "png",
    });
    const dead = findDeadLinks(root, ["README.md", "docs/guide.md"]);
    expect(dead).toEqual([
      { file: "README.md", line: 4, target: "docs/gone.md", reason: "no such file" },
      { file: "README.md", line: 4, target: "docs/guide.md#no-such-part", reason: "no such heading" },
      { file: "README.md", line: 5, target: "docs/none.png", reason: "no such file" },
      { file: "README.md", line: 11, target: "../elsewhere.md", reason: "outside the repository" },
      { file: "README.md", line: 14, target: "docs/old.md", reason: "no such file" },
      { file: "docs/guide.md", line: 5, target: "../README.md#missing", reason: "no such heading" },
    ]);
  });

  it("finds no dead link in this repository's documentation", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const files = markdownFiles(root);
    expect(files).toContain("README.md");
    expect(findDeadLinks(root, files)).toEqual([]);
  });
});
