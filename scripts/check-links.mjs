// Dead links in the documentation, for `npm run lint` (so `npm test` and CI): in every tracked Markdown
// file (`git ls-files '*.md'`), each relative link must name a file or folder that exists in the
// repository, and an `#anchor` into a Markdown file (or within the same one) must match one of its
// headings, slugged as GitHub does (lowercase; punctuation dropped but `-` and `_`; each space a `-`;
// repeats get `-1`, `-2`, …) or an explicit `id`/`name` in its HTML. Links with a scheme (https:,
// mailto:, …) are not followed. Links inside code (fenced blocks, `code spans`) are not links.
// `node scripts/check-links.mjs [root]` lists the dead ones and exits 1; plain Node, no dependency.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** GitHub's anchor for a heading's text (the rendered text: markup, code ticks and HTML dropped). */
export function githubSlug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]*>/g, "")
    .replace(/[`*~]/g, "");
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Each line of `markdown` with fenced code blocks blanked and code spans replaced by spaces. */
function proseLines(markdown) {
  const lines = markdown.split(/\r?\n/);
  let fence;
  return lines.map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length && !line.slice(opening[0].length).trim()) fence = undefined;
      return "";
    }
    if (opening) {
      fence = opening[1];
      return "";
    }
    return line.replace(/(`+)(.+?)\1/g, (m) => " ".repeat(m.length));
  });
}

/** The anchors a Markdown document offers: its headings' slugs (with GitHub's -1, -2 for repeats) and HTML ids. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  const add = (slug) => {
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  };
  const lines = proseLines(markdown);
  const raw = markdown.split(/\r?\n/);
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx)
      return add(
        githubSlug(
          raw[i]
            .replace(/^ {0,3}#{1,6}\s*/, "")
            .replace(/\s+#+\s*$/, "")
            .trim(),
        ),
      );
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && /^ {0,3}(=+|-+)\s*$/.test(next) && !/^\s*([-*+]|\d+[.)])\s/.test(line) && !line.includes("|"))
      add(githubSlug(raw[i].trim()));
    for (const m of line.matchAll(/<[a-z][^>]*\s(?:id|name)=["']([^"']+)["']/gi)) anchors.add(m[1]);
  });
  return anchors;
}

/** The link targets on a line of prose: inline links and images, reference definitions, HTML href/src. */
function targetsOn(line) {
  const found = [];
  const def = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
  if (def) found.push(def[1]);
  for (let at = line.indexOf("]("); at !== -1; at = line.indexOf("](", at + 2)) {
    let i = at + 2;
    while (line[i] === " ") i++;
    let target = "";
    if (line[i] === "<") {
      const end = line.indexOf(">", i);
      if (end === -1) continue;
      target = line.slice(i, end + 1);
    } else {
      let depth = 0;
      for (; i < line.length; i++) {
        const c = line[i];
        if (c === "\\" && i + 1 < line.length) {
          target += line[++i];
          continue;
        }
        if (c === "(") depth++;
        if (c === ")" && depth-- === 0) break;
        if (/\s/.test(c) && depth === 0) break;
        target += c;
      }
    }
    if (target) found.push(target);
  }
  for (const m of line.matchAll(/<[a-z][^>]*\s(?:href|src)=["']([^"']+)["']/gi)) found.push(m[1]);
  return found.map((t) => (t.startsWith("<") && t.endsWith(">") ? t.slice(1, -1) : t));
}

const decode = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The Markdown files git tracks under `root` (relative paths); every *.md file when `root` is not a git work tree. */
export function markdownFiles(root) {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--", "*.md"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return out.split("\0").filter(Boolean);
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        if (e.name.startsWith(".") || e.name === "node_modules") continue;
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) walk(rel);
        else if (e.name.endsWith(".md")) files.push(rel);
      }
    };
    walk("");
    return files;
  }
}

/**
 * The dead links of `files` (paths relative to `root`): `{ file, line, target, reason }` each, in the
 * order they appear.
 */
export function findDeadLinks(root, files = markdownFiles(root)) {
  const dead = [];
  const anchorCache = new Map();
  const anchorsIn = (abs) => {
    if (!anchorCache.has(abs)) anchorCache.set(abs, anchorsOf(fs.readFileSync(abs, "utf8")));
    return anchorCache.get(abs);
  };
  const top = path.resolve(root);
  for (const file of files) {
    const abs = path.join(top, file);
    if (!fs.existsSync(abs)) continue;
    const lines = proseLines(fs.readFileSync(abs, "utf8"));
    lines.forEach((line, i) => {
      for (const target of targetsOn(line)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
        const hash = target.indexOf("#");
        const pathPart = decode((hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, ""));
        const anchor = hash === -1 ? undefined : decode(target.slice(hash + 1));
        const report = (reason) => dead.push({ file, line: i + 1, target, reason });
        const resolved = pathPart ? (pathPart.startsWith("/") ? path.join(top, pathPart) : path.resolve(path.dirname(abs), pathPart)) : abs;
        if (resolved !== top && !resolved.startsWith(top + path.sep)) {
          report("outside the repository");
          continue;
        }
        if (!fs.existsSync(resolved)) {
          report("no such file");
          continue;
        }
        if (anchor === undefined || !anchor || !resolved.endsWith(".md") || fs.statSync(resolved).isDirectory()) continue;
        if (!anchorsIn(resolved).has(anchor.toLowerCase()) && !anchorsIn(resolved).has(anchor)) report("no such heading");
      }
    });
  }
  return dead;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
  const files = markdownFiles(root);
  const dead = findDeadLinks(root, files);
  if (dead.length) {
    console.error(`check-links: ${dead.length} dead link${dead.length === 1 ? "" : "s"} in the documentation:`);
    for (const d of dead) console.error(`  ${d.file}:${d.line}: ${d.target} (${d.reason})`);
    process.exit(1);
  }
  console.log(`check-links: every relative link of ${files.length} Markdown files resolves`);
}
