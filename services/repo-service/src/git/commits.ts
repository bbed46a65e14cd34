// Reading commits as the API shows them (quarry.repo.v1.Commit): many refs with one
// `git for-each-ref`, single commits with one `git log -1`.
import { branchRef } from "@quarry/gitlab";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import { git, GitError } from "./git.ts";
import { parseTrailers, trailerMaps } from "./trailers.ts";

export type { Commit };

/** GitLab's abbreviated commit id length. */
export const SHORT_ID_LENGTH = 8;

/**
 * The commit fields, in the order both formats below print them. Fields are NUL-terminated; the
 * message is last, and commit messages cannot hold NUL (git refuses them).
 */
export const REF_FIELDS = [
  "%(objectname)",
  "%(refname)",
  "%(objecttype)",
  "%(authorname)",
  "%(authoremail:trim)",
  "%(authordate:iso-strict)",
  "%(committername)",
  "%(committeremail:trim)",
  "%(committerdate:iso-strict)",
  "%(parent)",
  "%(contents)",
];
const REF_FORMAT = `--format=${REF_FIELDS.join("%00")}%00`;

/** The same fields for `git log` (refname and type are unused there). */
const LOG_FORMAT = `--format=${["%H", "", "commit", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%P", "%B"].join("%x00")}%x00`;

/** git ≥ 2.45 writes UTC as "Z" in iso-strict; the API always shows an offset. */
export function isoDate(date: string): string {
  return date.endsWith("Z") ? `${date.slice(0, -1)}+00:00` : date;
}

/**
 * GitLab's Commit#title: the first line of the message ("No commit message" for a blank one);
 * a first line of 100 characters or more is cut at the last space within 78 characters, plus "...".
 */
export function commitTitle(message: string): string {
  if (!message.trim()) return "No commit message";
  const full = message.split(/[\r\n]/, 1)[0] ?? "";
  const chars = Array.from(full); // Ruby counts characters, not UTF-16 units
  if (chars.length < 100) return full;
  const omission = "...";
  const room = 81 - omission.length;
  const space = chars.lastIndexOf(" ", room);
  return chars.slice(0, space === -1 ? room : space).join("") + omission;
}

/** A commit from the fields of REF_FIELDS / LOG_FORMAT, in that order. */
export function toCommit(f: readonly string[]): Commit {
  const [
    id = "",
    ,
    ,
    authorName = "",
    authorEmail = "",
    authoredDate = "",
    committerName = "",
    committerEmail = "",
    committedDate = "",
    parents = "",
    message = "",
  ] = f;
  return {
    id,
    shortId: id.slice(0, SHORT_ID_LENGTH),
    title: commitTitle(message),
    message,
    authorName,
    authorEmail,
    authoredDate: isoDate(authoredDate),
    committerName,
    committerEmail,
    committedDate: isoDate(committedDate),
    parentIds: parents.split(" ").filter(Boolean),
    ...trailerMaps(parseTrailers(message)),
  };
}

/** Splits NUL-terminated records of `width` fields; each record but the first starts with "\n". */
export function records(stdout: string, width = REF_FIELDS.length): string[][] {
  const fields = stdout.split("\0");
  const out: string[][] = [];
  for (let i = 0; i + width <= fields.length; i += width) {
    const record = fields.slice(i, i + width);
    if (record[0]!.startsWith("\n")) record[0] = record[0]!.slice(1);
    out.push(record);
  }
  return out;
}

/**
 * The commits the given refs point at, keyed by full ref name, with one `git for-each-ref`.
 * `patterns` are for-each-ref patterns (e.g. "refs/heads/" for every branch, or full ref names);
 * an empty list reads nothing. Refs pointing at something other than a commit are left out.
 */
export async function readRefCommits(gitDir: string, patterns: readonly string[]): Promise<Map<string, Commit>> {
  const commits = new Map<string, Commit>();
  if (!patterns.length) return commits;
  const { stdout } = await git(["for-each-ref", REF_FORMAT, ...patterns], { gitDir });
  for (const record of records(stdout)) {
    if (record[2] === "commit") commits.set(record[1]!, toCommit(record));
  }
  return commits;
}

/** The commit of `refs/heads/<name>` exactly (not a ref below it), or null. */
export async function readBranchCommit(gitDir: string, name: string): Promise<Commit | null> {
  const ref = branchRef(name);
  return (await readRefCommits(gitDir, [ref])).get(ref) ?? null;
}

/** One commit by its full sha (resolve revisions first, e.g. with resolveCommit). */
export async function readCommit(gitDir: string, sha: string): Promise<Commit> {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) throw new Error(`not a full commit sha: ${JSON.stringify(sha)}`);
  const { stdout } = await git(["log", "-1", "--no-show-signature", LOG_FORMAT, sha, "--"], { gitDir });
  const record = records(stdout)[0];
  if (!record) throw new GitError(["log", sha], 0, "no commit printed");
  return toCommit(record);
}

/**
 * The commits `git log <args>` prints, in its order. `args` are log options, then
 * "--end-of-options", revisions, "--" and paths. `env` can lend another repository's objects
 * (GIT_ALTERNATE_OBJECT_DIRECTORIES).
 */
export async function logCommits(gitDir: string, args: readonly string[], env?: Record<string, string>): Promise<Commit[]> {
  const { stdout } = await git(["log", "--no-show-signature", LOG_FORMAT, ...args], { gitDir, env });
  return records(stdout).map(toCommit);
}

/**
 * Branch heads reachable from `refs/heads/<target>` among those matching `patterns` (full ref
 * name → sha), with one `git for-each-ref --merged`. Empty when the target branch does not exist.
 */
export async function mergedInto(gitDir: string, target: string, patterns: readonly string[]): Promise<Map<string, string>> {
  const merged = new Map<string, string>();
  if (!target || !patterns.length) return merged;
  try {
    const { stdout } = await git(["for-each-ref", `--merged=${branchRef(target)}`, "--format=%(objectname)%00%(refname)%00", ...patterns], { gitDir });
    const fields = stdout.split("\0");
    for (let i = 0; i + 1 < fields.length; i += 2) merged.set(fields[i + 1]!, fields[i]!.replace(/^\n/, ""));
  } catch (err) {
    // The target is no commit (missing branch): nothing is merged into it.
    if (err instanceof GitError && /malformed object name|not a valid|no such commit/i.test(err.stderr)) return merged;
    throw err;
  }
  return merged;
}

/** Several commits by full sha with one `git log --no-walk`, keyed by sha (missing ones left out). */
export async function readCommits(gitDir: string, shas: readonly string[]): Promise<Map<string, Commit>> {
  const out = new Map<string, Commit>();
  const unique = [...new Set(shas)];
  if (!unique.length) return out;
  for (const sha of unique) if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) throw new Error(`not a full commit sha: ${JSON.stringify(sha)}`);
  const { stdout } = await git(["log", "--no-walk=unsorted", "--no-show-signature", LOG_FORMAT, ...unique, "--"], { gitDir });
  for (const record of records(stdout)) out.set(record[0]!, toCommit(record));
  return out;
}
