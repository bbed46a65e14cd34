import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { spawn } from "node:child_process";
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { inheritedEnvironment } from "../env.ts";
import { mayWriteRefs, refsChanged } from "./ref-writes.ts";

/**
 * Variables that point git at another repository (`git rev-parse --local-env-vars`). Dropped from
 * the inherited environment so that a service started from inside a git hook or work tree only
 * ever touches the repository named by `--git-dir`.
 */
const REPOSITORY_VARIABLES = new Set([
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_QUARANTINE_PATH",
]);

const DEFAULT_TIMEOUT_MS = 60_000;

export const NULL_SHA = "0000000000000000000000000000000000000000";

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (exit ${exitCode ?? "signal"}): ${stderr.trim()}`);
    this.name = "GitError";
  }
}

export interface GitOptions {
  /** Repository to run in (`--git-dir`); omitted for commands that need none. */
  gitDir?: string;
  /** Written to stdin, which is closed afterwards (stdin is empty otherwise). */
  input?: string;
  /** Extra environment, e.g. GIT_AUTHOR_NAME. */
  env?: Record<string, string>;
  /** Exit codes besides 0 that are answers rather than failures (e.g. 1 for `rev-parse --verify -q`). */
  okExitCodes?: number[];
  cwd?: string;
  timeoutMs?: number;
}

export interface GitResult {
  stdout: string;
  exitCode: number;
}

/** The environment git runs with: the inherited one without repository-redirecting variables. */
export function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inheritedEnvironment())) {
    if (value !== undefined && !REPOSITORY_VARIABLES.has(key)) env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  return Object.assign(env, extra);
}

/**
 * Runs git with an argument array (never through a shell). Resolves with stdout for exit code 0
 * or one of `okExitCodes`; rejects with GitError otherwise.
 */
export function git(args: readonly string[], o: GitOptions = {}): Promise<GitResult> {
  const argv = o.gitDir ? ["--git-dir", o.gitDir, ...args] : [...args];
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, {
      cwd: o.cwd,
      env: gitEnvironment(o.env),
      stdio: ["pipe", "pipe", "pipe"],
      timeout: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    // A child that exits before reading its input closes the pipe; the exit code tells the story.
    child.stdin.on("error", () => {});
    child.on("error", reject);
    child.on("close", (code) => {
      // Whatever the outcome, a process that could write refs ends every cached read of them.
      if (o.gitDir && mayWriteRefs(args)) refsChanged(o.gitDir);
      const stdout = Buffer.concat(out).toString("utf8");
      if (code === 0 || (code !== null && o.okExitCodes?.includes(code))) {
        resolve({ stdout, exitCode: code });
      } else {
        reject(new GitError(args, code, Buffer.concat(err).toString("utf8")));
      }
    });
    child.stdin.end(o.input ?? "");
  });
}

/** Whether `dir` holds a repository (a directory with a HEAD file). */
export async function isRepository(dir: string): Promise<boolean> {
  try {
    // One stat: HEAD is a file only inside a directory (a file at `dir` fails with ENOTDIR). Every read asks this.
    return (await stat(path.join(dir, "HEAD"))).isFile();
  } catch {
    return false;
  }
}

/** Whether anything (file, directory, link) exists at `p`. */
export async function pathExists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** The branch HEAD points at ("" when HEAD is detached). */
export async function headBranch(gitDir: string): Promise<string> {
  const { stdout, exitCode } = await git(["symbolic-ref", "-q", "HEAD"], { gitDir, okExitCodes: [1] });
  const ref = stdout.trim();
  return exitCode === 0 && ref.startsWith(BRANCH_REF_PREFIX) ? ref.slice(BRANCH_REF_PREFIX.length) : "";
}

/** Full names of the branches (refs/heads/…). */
export async function branchRefs(gitDir: string): Promise<string[]> {
  const { stdout } = await git(["for-each-ref", "--format=%(refname)", BRANCH_REF_PREFIX], { gitDir });
  return stdout.split("\n").filter(Boolean);
}

/** The commit a revision resolves to, or "" when it does not exist (e.g. HEAD of an empty repository). */
export async function resolveCommit(gitDir: string, rev: string): Promise<string> {
  const { stdout, exitCode } = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], {
    gitDir,
    okExitCodes: [1],
  });
  return exitCode === 0 ? stdout.trim() : "";
}

/** The longest file name the file system takes (NAME_MAX); a loose ref is locked as `<name>.lock`. */
const MAX_REF_COMPONENT_BYTES = 255 - ".lock".length;

/**
 * Whether every `/`-separated part of a ref name can be a file: git's rules allow any length,
 * but the "files" backend stores a ref as a path, and a longer part fails on disk (a 500).
 */
export function fitsRefFiles(name: string): boolean {
  return name.split("/").every((part) => Buffer.byteLength(part) <= MAX_REF_COMPONENT_BYTES);
}

/** `git check-ref-format --branch`: whether `name` is a valid branch name (taken literally). */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!name || name.startsWith("-") || name.startsWith("refs/") || !isPlausibleBranchName(name)) return false;
  // Run outside any repository ("/"); inside one `--branch` would expand `@{-N}`. Only a name that
  // comes back unchanged is taken literally.
  const { stdout, exitCode } = await git(["check-ref-format", "--branch", name], { cwd: "/", okExitCodes: [1, 128] });
  return exitCode === 0 && stdout.replace(/\n$/, "") === name;
}

/**
 * HEAD's branch and every branch with the sha it points at, read straight from the "files" ref
 * backend (HEAD, loose refs, packed-refs; a loose ref wins over its packed line) so that
 * metadata reads spawn no process. Other backends (reftable) go through git. With `names`, loose
 * refs are listed but not opened (their shas are "").
 */
export async function readBranchHeads(gitDir: string, o: { names?: boolean } = {}): Promise<{ head: string; heads: Map<string, string> }> {
  const heads = new Map<string, string>();
  if (await pathExists(path.join(gitDir, "reftable"))) {
    const [head, { stdout }] = await Promise.all([
      headBranch(gitDir),
      git(["for-each-ref", "--format=%(objectname) %(refname)", BRANCH_REF_PREFIX], { gitDir }),
    ]);
    for (const line of stdout.split("\n")) {
      const [sha, ref] = line.split(" ");
      if (sha && ref) heads.set(ref, sha);
    }
    return { head, heads };
  }
  const headFile = (await readFile(path.join(gitDir, "HEAD"), "utf8")).trim();
  const head = headFile.startsWith(`ref: ${BRANCH_REF_PREFIX}`) ? headFile.slice(`ref: ${BRANCH_REF_PREFIX}`.length) : "";
  try {
    for (const line of (await readFile(path.join(gitDir, "packed-refs"), "utf8")).split("\n")) {
      // "<sha> refs/heads/<name>"; comments start with '#', peeled tags with '^'.
      const [sha, ref] = line.split(" ");
      if (sha && ref?.startsWith(BRANCH_REF_PREFIX)) heads.set(ref, sha);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const walk = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(gitDir, rel), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    await Promise.all(
      entries.map(async (e) => {
        const child = `${rel}/${e.name}`;
        if (e.isDirectory()) return walk(child);
        if (!e.isFile() || e.name.endsWith(".lock")) return;
        // Names only (counting branches): no need to open every file.
        if (o.names) return void heads.set(child, "");
        const content = (await readFile(path.join(gitDir, child), "utf8").catch(() => "")).trim();
        // Symbolic refs ("ref: …") and files caught mid-write are not branch heads.
        if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(content)) heads.set(child, content);
      }),
    );
  };
  await walk("refs/heads");
  return { head, heads: new Map([...heads].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

const FULL_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The sha the ref `ref` (a full name such as "refs/heads/main", already checked to be a plausible
 * ref name) points at, "" when there is no such ref, read from the "files" backend without a
 * process: the loose ref file, else its packed-refs line. Undefined when only git can say (a
 * symbolic ref, a reftable repository).
 */
export async function readRefFile(gitDir: string, ref: string): Promise<string | undefined> {
  try {
    const content = (await readFile(path.join(gitDir, ref), "utf8")).trim();
    return FULL_SHA.test(content) ? content : undefined;
  } catch (err) {
    // ENOTDIR: a reftable repository's "refs/heads" is a file; EISDIR: a directory of refs below it.
    if (!["ENOENT", "ENOTDIR", "EISDIR"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
  }
  let packed: string;
  try {
    packed = await readFile(path.join(gitDir, "packed-refs"), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return (await pathExists(path.join(gitDir, "reftable"))) ? undefined : "";
  }
  // "<sha> <ref>" lines; comments start with '#', peeled tags with '^'.
  const suffix = ` ${ref}`;
  for (const line of packed.split("\n")) {
    if (line.endsWith(suffix) && FULL_SHA.test(line.slice(0, -suffix.length))) return line.slice(0, -suffix.length);
  }
  return "";
}

/** Whether the repository has any branch (read as readBranchHeads does). */
export async function hasBranches(gitDir: string): Promise<boolean> {
  return (await readBranchHeads(gitDir, { names: true })).heads.size > 0;
}

/** HEAD's branch and the full branch ref names, sorted (see readBranchHeads). */
export async function readHeadAndBranches(gitDir: string): Promise<{ head: string; branches: string[] }> {
  const { head, heads } = await readBranchHeads(gitDir, { names: true });
  return { head, branches: [...heads.keys()] };
}

/**
 * A cheap, process-free check that `name` could be a branch (git's ref-name rules): used before a
 * name from a request reaches a git argument where revision syntax (`main~1`, `@{-1}`) would be
 * interpreted. Creating a branch still asks git (isValidBranchName).
 */
export function isPlausibleBranchName(name: string): boolean {
  if (!name || name.startsWith("-") || name === "HEAD" || name === "@") return false;
  // Control characters, space, ~ ^ : ? * [ \ and DEL; "..", "@{" and "//" anywhere.
  if (/[\x00-\x20~^:?*[\\\x7f]|\.\.|@\{|\/\//.test(name)) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((c) => !c.startsWith(".") && !c.endsWith(".lock")) && fitsRefFiles(name);
}
