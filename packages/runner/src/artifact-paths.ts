import type { Dirent } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import { style } from "./log.ts";
import type { TraceWriter } from "./stage.ts";

export interface ArtifactEntry {
  /** Path inside the archive: relative to the project directory, `/`-separated. */
  rel: string;
  abs: string;
  kind: "file" | "dir" | "symlink";
}

function kindOf(d: Pick<Dirent, "isDirectory" | "isFile" | "isSymbolicLink">): ArtifactEntry["kind"] | null {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  return null;
}

/** Everything below `rel` (not following symlinks: a link is archived as a link). */
async function* walk(root: string, rel: string): AsyncGenerator<ArtifactEntry> {
  let children: Dirent[];
  try {
    children = await readdir(path.join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const child of children) {
    const childRel = rel === "" ? child.name : `${rel}/${child.name}`;
    const kind = kindOf(child);
    if (!kind) continue;
    yield { rel: childRel, abs: path.join(root, childRel), kind };
    if (kind === "dir") yield* walk(root, childRel);
  }
}

/** `pattern` relative to the project directory, or null when it points outside of it. */
function projectRelative(projectDir: string, pattern: string): string | null {
  const rel = path.isAbsolute(pattern) ? path.relative(projectDir, pattern) : pattern;
  const normalized = path.posix.normalize(rel.split(path.sep).join("/")).replace(/\/+$/, "");
  if (normalized === ".." || normalized.startsWith("../") || path.posix.isAbsolute(normalized)) return null;
  return normalized === "." ? "" : normalized;
}

/** Whether `candidate` is `root` or below it. */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The files an `artifacts:` entry selects, like gitlab-runner's file archiver: each path is a
 * file, a directory (taken recursively) or a glob (`*`, `**`, `?`, `[...]`, `{a,b}`; matched
 * directories are taken recursively); `untracked` adds the given untracked files; `exclude`
 * globs drop individual paths. Paths outside the project directory are refused, symlinks are
 * archived as links and never followed.
 */
export async function resolveArtifactPaths(
  projectDir: string,
  o: { paths: string[]; exclude: string[]; untracked: string[]; trace: TraceWriter },
): Promise<ArtifactEntry[]> {
  const realProject = await realpath(projectDir);
  const selected = new Map<string, ArtifactEntry>();
  const addTree = async (entry: ArtifactEntry) => {
    selected.set(entry.rel, entry);
    if (entry.kind === "dir") for await (const below of walk(projectDir, entry.rel)) selected.set(below.rel, below);
  };
  const notFound = (pattern: string) =>
    o.trace.line(style.warning(`${pattern}: no matching files. Ensure that the artifact path is relative to the working directory (${projectDir})`));

  for (const pattern of o.paths) {
    const rel = projectRelative(projectDir, pattern);
    if (rel === null) {
      o.trace.line(style.warning(`artifact path is not a subpath of project directory: ${pattern}`));
      continue;
    }
    const before = selected.size;
    const scan = picomatch.scan(rel);
    if (scan.isGlob) {
      const matches = picomatch(rel, { dot: true });
      for await (const entry of walk(projectDir, "")) if (matches(entry.rel)) await addTree(entry);
    } else if (rel === "") {
      for await (const entry of walk(projectDir, "")) selected.set(entry.rel, entry);
    } else {
      const abs = path.join(projectDir, rel);
      // A parent directory may be a symlink to somewhere else; its real location must stay inside.
      const realParent = await realpath(path.dirname(abs)).catch(() => null);
      if (realParent && !isInside(realProject, realParent)) {
        o.trace.line(style.warning(`artifact path is not a subpath of project directory: ${pattern}`));
        continue;
      }
      const stat = await lstat(abs).catch(() => null);
      const kind = stat && kindOf(stat);
      if (kind) await addTree({ rel, abs, kind });
    }
    const found = selected.size - before;
    if (found > 0) o.trace.line(`${pattern}: found ${found} matching artifact files and directories`);
    else notFound(pattern);
  }

  for (const rel of o.untracked) {
    const abs = path.join(projectDir, rel);
    const stat = await lstat(abs).catch(() => null);
    const kind = stat && kindOf(stat);
    if (kind) selected.set(rel, { rel, abs, kind });
  }
  if (o.untracked.length > 0) o.trace.line(`untracked: found ${o.untracked.length} files`);

  const excluded = o.exclude.map((pattern) => picomatch(projectRelative(projectDir, pattern) ?? pattern, { dot: true }));
  return [...selected.values()].filter((entry) => !excluded.some((matches) => matches(entry.rel))).sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
