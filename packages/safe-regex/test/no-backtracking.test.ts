// Keeps issue 11's regular-expression DoS fixed: a pattern a user supplies must go through
// @quarry/safe-regex (RE2, linear time), never JavaScript's backtracking RegExp. Every place that
// builds a RegExp at run time, or hands a non-literal to String#match/matchAll/search (which
// build one), must be listed below with the reason its pattern cannot come from a user.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

interface Allowed {
  /** Repository-relative file. */
  file: string;
  /** A piece of the line with the call, so the entry follows the code when lines move. */
  code: string;
  reason: string;
}

const ALLOWLIST: Allowed[] = [
  {
    file: "services/identity-service/src/identity/list-users.ts",
    code: "query.match(QUOTED_TERM)",
    reason: "constant: QUOTED_TERM is a regex literal of the module (a quoted run without quotes inside, between spaces: linear); the search text is the input",
  },
  {
    file: "services/gateway/src/entities/wiki-page.ts",
    code: "const FRONT_MATTER = new RegExp(",
    reason:
      "constant: GitLab's front matter pattern built from module constants; the page text is the input (capped, anchored at its start, the quadratic encoding-line part done with indexOf)",
  },
  {
    file: "services/gateway/src/http/uploads.ts",
    code: "layer.match(path)",
    reason: "express's router layer matching a request path against the app's own route patterns (path-to-regexp), as express does for every request",
  },
  {
    file: "packages/database/src/drift.ts",
    code: "new RegExp(`(?:^|[^@\\\\w])${attribute}",
    reason: "constant: `attribute` is one of the schema attribute names the drift check passes in code",
  },
  {
    file: "services/hook-service/src/hook/hook-input.ts",
    code: "url.matchAll(PLACEHOLDER)",
    reason: "constant: PLACEHOLDER is a regex literal of the module",
  },
  {
    file: "packages/safe-regex/src/index.ts",
    code: "this.re2.matchAll(text)",
    reason: "RE2's own matchAll (re2js), not String#matchAll",
  },
  {
    file: "services/gateway/src/http/job-token.ts",
    code: "layer.match(req.path)",
    reason: "Express's Layer#match: the pattern is the route path declared in the gateway's code, not input",
  },
  {
    file: "services/collab-service/src/system-note/mentions.ts",
    code: ".matchAll(ISSUE_REFERENCE)",
    reason: "constant: ISSUE_REFERENCE is a regex literal of the module (bounded `#\\d{1,9}`); the text is the input, not the pattern",
  },
  {
    file: "services/gateway/src/entities/issue.ts",
    code: ".matchAll(TASK_ITEM)",
    reason: "constant: TASK_ITEM is a regex literal of the module; the description is the input, not the pattern",
  },
  {
    file: "services/gateway/src/routes/git-http.ts",
    code: "new RegExp(`^${SNIPPET_REPO}",
    reason: "constant: SNIPPET_REPO is a string constant of the module naming snippet repository paths",
  },
];

const CALL = /\bRegExp\s*\(|\.(?:match|matchAll|search)\(\s*(?![/)])/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (["node_modules", "dist", "generated", "test", "__tests__"].includes(entry.name)) continue;
      out.push(...sourceFiles(full));
    } else if (/\.(?:ts|mts|cts)$/.test(entry.name) && !/\.(?:test|spec)\.[mc]?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(full);
    }
  }
  return out;
}

function sourceRoots(): string[] {
  const roots: string[] = [];
  for (const group of ["services", "packages"]) {
    for (const entry of readdirSync(path.join(ROOT, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const src = path.join(ROOT, group, entry.name, "src");
      try {
        if (readdirSync(src).length) roots.push(src);
      } catch {
        // a package without src/
      }
    }
  }
  return roots;
}

interface Found {
  file: string;
  line: number;
  text: string;
}

function findCalls(): Found[] {
  const found: Found[] = [];
  for (const file of sourceRoots().flatMap(sourceFiles)) {
    const rel = path.relative(ROOT, file).split(path.sep).join("/");
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((text, i) => {
        const code = text.replace(/\/\/.*$/, "").trim();
        if (code.startsWith("*") || code.startsWith("/*")) return; // doc comments
        if (new RegExp(CALL.source).test(code)) found.push({ file: rel, line: i + 1, text: text.trim() });
      });
  }
  return found;
}

describe("no user-supplied regular expression reaches backtracking RegExp", () => {
  const found = findCalls();

  it("scans the services' and packages' sources", () => {
    // The scan must see the code it guards (a broken root would pass vacuously).
    const files = sourceRoots()
      .flatMap(sourceFiles)
      .map((f) => path.relative(ROOT, f).split(path.sep).join("/"));
    expect(files).toContain("services/hook-service/src/delivery/branch-filter.ts");
    expect(files).toContain("services/ci-service/src/config/expression.ts");
    expect(files).toContain("services/repo-service/src/refs/branches.ts");
    expect(files.length).toBeGreaterThan(100);
  });

  it("finds no RegExp construction outside the allowlist", () => {
    const unlisted = found.filter((f) => !ALLOWLIST.some((a) => a.file === f.file && f.text.includes(a.code)));
    expect(
      unlisted.map((f) => `${f.file}:${f.line}: ${f.text}`),
      "compile user patterns with compileUserRegex from @quarry/safe-regex, or allowlist a constant one here with its reason",
    ).toEqual([]);
  });

  it("has no stale allowlist entries, and each says why", () => {
    for (const entry of ALLOWLIST) {
      expect(entry.reason.length, entry.file).toBeGreaterThan(10);
      expect(
        found.some((f) => f.file === entry.file && f.text.includes(entry.code)),
        `${entry.file}: ${entry.code} no longer exists; drop it from the allowlist`,
      ).toBe(true);
    }
  });
});
