// Document 2's endpoint coverage is machine-checked: docs/document-2-coverage.md lists each of its
// 51 endpoints with the end-to-end tests that exercise it. This test reads that table and fails
// when an endpoint is not served by the gateway's router, or a named test is gone from its file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createApp } from "@quarry/gateway";
import { match } from "path-to-regexp";
import { describe, expect, it } from "vitest";
import { routesOf } from "./fuzz-requests.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TESTS = import.meta.dirname;

interface Row {
  n: number;
  method: string;
  template: string;
  tests: { file: string; title: string }[];
}

function rows(table: string): Row[] {
  const out: Row[] = [];
  for (const line of readFileSync(path.join(ROOT, table), "utf8").split("\n")) {
    const m = /^\| (\d+) \| (GET|POST|PUT|PATCH|DELETE) (\S+) \| (.+) \|$/.exec(line);
    if (!m) continue;
    const [, n = "", method = "", template = "", cell = ""] = m;
    const tests = [...cell.matchAll(/`([\w.-]+\.test\.ts)` › "([^"]+)"/g)].map(([, file = "", title = ""]) => ({ file, title }));
    out.push({ n: Number(n), method, template, tests });
  }
  return out;
}

/** A concrete request path for a documented template: every parameter filled with a valid value. */
function concrete(template: string): string {
  const values: Record<string, string> = { slug: "dir%2Fpage", secret: "0123456789abcdef0123456789abcdef", filename: "a.png" };
  return `/api/v4${template.replace(/:(\w+)/g, (_, name: string) => values[name] ?? "1")}`;
}

const routes = routesOf(createApp({ config: { maxBodyBytes: 1 } } as Parameters<typeof createApp>[0]));

function served(method: string, url: string): boolean {
  return routes.some((r) => {
    if (r.method !== method) return false;
    if (r.path instanceof RegExp) return r.path.test(url);
    return match(r.path, { decode: false })(url) !== false;
  });
}

const DOCUMENTS = [
  { number: 2, table: "docs/document-2-coverage.md", endpoints: 51 },
  { number: 3, table: "docs/document-3-coverage.md", endpoints: 49 },
];

describe.each(DOCUMENTS)("$table", ({ number, table: file, endpoints }) => {
  const table = rows(file);
  it(`lists document ${number}'s ${endpoints} endpoints, each once, each with at least one test`, () => {
    expect(table.map((r) => r.n)).toEqual(Array.from({ length: endpoints }, (_, i) => i + 1));
    expect(new Set(table.map((r) => `${r.method} ${r.template}`)).size).toBe(endpoints);
    for (const r of table) expect(r.tests.length, `row ${r.n}`).toBeGreaterThan(0);
  });

  it("names only endpoints the gateway routes", () => {
    const unrouted = table.filter((r) => !served(r.method, concrete(r.template))).map((r) => `${r.method} ${r.template}`);
    expect(unrouted).toEqual([]);
    // The check can fail: a path nobody serves is not matched.
    expect(served("GET", "/api/v4/projects/1/no_such_resource")).toBe(false);
  });

  it("names only tests that exist in their files", () => {
    const missing: string[] = [];
    const sources = new Map<string, string>();
    for (const r of table) {
      for (const t of r.tests) {
        if (!sources.has(t.file)) sources.set(t.file, readFileSync(path.join(TESTS, t.file), "utf8"));
        const src = sources.get(t.file) ?? "";
        if (!src.includes(`it("${t.title}"`) && !src.includes(`it(\n    "${t.title}"`)) missing.push(`row ${r.n}: ${t.file} › ${t.title}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
