// Keeps the rooms of README.md's "Layout" apart: no import cycle among the service's own files, and
// a room imports only the rooms below it (tests excepted), so git plumbing never grows a
// dependency on policy or on a handler.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.dirname(fileURLToPath(import.meta.url));
/** Lowest first: a room's files may import its own room and the ones before it. */
const ROOMS = ["git", "protection", "refs", "events", "writes", "storage", "rpc"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === "generated") return [];
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return name.endsWith(".ts") ? [p] : [];
  });
}

/** Relative import targets of each file (type-only imports too: they are dependencies for a reader). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)"(\.{1,2}\/[^"]+\.ts)"/gm)].map((m) => m[1]!);
    const targets = specifiers
      .map((s) => path.resolve(path.dirname(file), s))
      .filter((t) => t.startsWith(root) && !t.includes(`${path.sep}generated${path.sep}`));
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle's files, as found by a depth-first walk (each cycle reported once per entry point). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    if (onStack.has(file)) {
      cycles.push([...stack.slice(stack.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

const roomOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;
const rel = (file: string) => path.relative(SRC, file).split(path.sep).join("/");

describe("source layout", () => {
  const graph = importGraph(SRC);

  it("reads the rooms' files", () => {
    // A broken root would pass vacuously.
    expect([...graph.keys()].map(rel)).toEqual(
      expect.arrayContaining(["git/git.ts", "protection/protection.ts", "refs/branches.ts", "rpc/create-branch.ts", "server.ts"]),
    );
    expect(graph.get(path.join(SRC, "refs", "branches.ts"))!.map(rel)).toContain("git/git.ts");
  });

  it("has no import cycle", () => {
    expect(findCycles(graph).map((c) => c.map(rel).join(" -> "))).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const a = path.join(SRC, "a.ts"),
      b = path.join(SRC, "b.ts"),
      c = path.join(SRC, "c.ts");
    expect(
      findCycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([[a, b, c, a]]);
    expect(
      findCycles(
        new Map([
          [a, [b, c]],
          [b, [c]],
          [c, []],
        ]),
      ),
    ).toEqual([]);
  });

  it("lets a room import only the rooms below it", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = ROOMS.indexOf(roomOf(file));
      if (from < 0 || file.endsWith(".test.ts")) continue;
      for (const target of targets) if (ROOMS.indexOf(roomOf(target)) > from) upward.push(`${rel(file)} -> ${rel(target)}`);
    }
    expect(upward).toEqual([]);
  });
});
