import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { BlameRange__Output as BlameRange } from "@quarry/proto/types/repo/v1/BlameRange";
import type { GetFileBlameRequest__Output } from "@quarry/proto/types/repo/v1/GetFileBlameRequest";
import type { GetFileBlameResponse__Output as GetFileBlameResponse } from "@quarry/proto/types/repo/v1/GetFileBlameResponse";
import type { RepoDeps } from "../deps.ts";
import { readCommits } from "../git/commits.ts";
import { readFile, validFilePath } from "../git/files.ts";
import { git, GitError, isRepository } from "../git/git.ts";
import { objectCaches } from "../git/object-cache.ts";

/**
 * Blame of a file at a ref, optionally of lines range_start..range_end (an end past the file's
 * last line means up to it): consecutive lines of one commit form one range, as GitLab groups
 * them. One `git blame --porcelain` and one `git log --no-walk` for the commits; the ranges of a
 * (commit, path, line range) never change and are cached by them.
 */
export const getFileBlame =
  (deps: RepoDeps) =>
  async (req: GetFileBlameRequest__Output): Promise<GetFileBlameResponse> => {
    const gitDir = deps.storages.resolve(req.diskPath);
    const filePath = validFilePath(req.filePath);
    const range = blameRange(req.rangeStart, req.rangeEnd);
    if (!(await isRepository(gitDir))) throw notFound("Repository");
    const file = await readFile(deps, { gitDir, filePath, ref: req.ref, withContent: false });

    const key = `${file.commitId}\0${filePath}\0${range ? `${range.start},${range.end}` : ""}`;
    const cached = objectCaches.blames.get(key);
    if (cached) return { file, ranges: cached };
    const args = ["blame", "--porcelain"];
    if (range) args.push("-L", `${range.start},${range.end}`);
    let stdout: string;
    try {
      ({ stdout } = await git([...args, file.commitId, "--", filePath], { gitDir }));
    } catch (err) {
      if (range && err instanceof GitError && /has only \d+ lines?/.test(err.stderr)) throw badRequest("range is outside of the file length");
      throw err;
    }
    const groups = porcelainGroups(stdout);
    const commits = await readCommits(
      gitDir,
      groups.map((g) => g.sha),
    );
    const ranges: BlameRange[] = groups.map((g) => ({ commit: commits.get(g.sha) ?? null, lines: g.lines }));
    objectCaches.blames.set(key, ranges);
    return { file, ranges };
  };

/** GitLab's range checks; null for the whole file. */
function blameRange(start: number, end: number): { start: number; end: number } | null {
  if (!start && !end) return null;
  if (!start) throw paramError("range[start] is missing");
  if (!end) throw paramError("range[end] is missing");
  if (start < 0) throw paramError("range[start] does not have a valid value");
  if (end < 0) throw paramError("range[end] does not have a valid value");
  if (start > end) throw badRequest("range[start] must be less than or equal to range[end]");
  return { start, end };
}

/**
 * Groups `git blame --porcelain` output into runs of consecutive lines of one commit. Each line
 * is a header "<sha> <orig line> <final line> [<group size>]", commit details the first time a
 * sha appears, then the content prefixed with a tab.
 */
export function porcelainGroups(stdout: string): { sha: string; lines: string[] }[] {
  const groups: { sha: string; lines: string[] }[] = [];
  let sha = "";
  let expectHeader = true;
  for (const line of stdout.split("\n")) {
    if (expectHeader) {
      if (!line) continue;
      sha = line.slice(0, line.indexOf(" "));
      expectHeader = false;
    } else if (line.startsWith("\t")) {
      const last = groups[groups.length - 1];
      if (last?.sha === sha) last.lines.push(line.slice(1));
      else groups.push({ sha, lines: [line.slice(1)] });
      expectHeader = true;
    }
  }
  return groups;
}
