// File diffs between two commits or trees as GitLab shows them (compare, commit diffs): one
// `git diff-tree --raw` for the list of changed files, one streamed `git diff-tree -p` for their
// patches, cut off at GitLab's diff limits (later files are "collapsed": listed without a patch)
// or at a timeout.
import { spawn } from "node:child_process";
import { gitEnvironment, GitError } from "./git.ts";

export interface DiffEntry {
  oldPath: string;
  newPath: string;
  /** Octal mode before, as GitLab prints it ("0" for an added file). */
  aMode: string;
  /** Octal mode after ("0" for a deleted file). */
  bMode: string;
  /** Patch from the first hunk header (or the "Binary files … differ" line); "" when left out. */
  diff: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  /** Left out because the comparison reached its limits (retrievable on its own). */
  collapsed: boolean;
  /** Left out because this patch alone is larger than maxPatchBytes. */
  tooLarge: boolean;
}

export interface DiffLimits {
  /** Files with a patch; the next one overflows. */
  maxFiles: number;
  /** Patch lines across files at which the comparison overflows. */
  maxLines: number;
  /** Patch bytes across files at which the comparison overflows. */
  maxBytes: number;
  /** A single patch this large is too_large. */
  maxPatchBytes: number;
}

/**
 * GitLab's limits for the compare API (Gitlab::Git::DiffCollection.default_limits: the "safe"
 * 100 files / 5,000 lines, 5 KiB per file on average; diff_max_patch_bytes 200 KiB per patch).
 */
export const COMPARE_DIFF_LIMITS: DiffLimits = {
  maxFiles: 100,
  maxLines: 5_000,
  maxBytes: 100 * 5 * 1024,
  maxPatchBytes: 200 * 1024,
};

/** GitLab's limits for a commit's diff (diff_max_files, diff_max_lines, 5 KiB per file on average). */
export const COMMIT_DIFF_LIMITS: DiffLimits = {
  maxFiles: 1000,
  maxLines: 50_000,
  maxBytes: 1000 * 5 * 1024,
  maxPatchBytes: 200 * 1024,
};

/** The empty tree of the repository's hash (known to git without being stored). */
export function emptyTree(oidLike: string): string {
  return oidLike.length === 64 ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321" : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

/** How long both diff processes together may take before the comparison gives up on patches. */
export const COMPARE_DIFF_TIMEOUT_MS = 30_000;

/** Gitaly's rename similarity threshold. */
const RENAMES = "--find-renames=30%";

export interface DiffResult {
  diffs: DiffEntry[];
  /** A limit was reached: the files after it are collapsed. */
  overflow: boolean;
  /** The timeout was reached: files without a patch by then are collapsed. */
  timedOut: boolean;
}

export interface DiffOptions {
  /** Extra environment (e.g. GIT_ALTERNATE_OBJECT_DIRECTORIES for another project's objects). */
  env?: Record<string, string>;
  limits?: DiffLimits;
  timeoutMs?: number;
}

interface RawEntry {
  entry: DiffEntry;
  /** Type changes print as a deletion and an addition: two patch sections. */
  sections: number;
}

/** "100644" stays, "000000" becomes "0" (GitLab prints Gitaly's integer modes in octal). */
function octalMode(mode: string): string {
  return parseInt(mode, 8).toString(8);
}

/** Parses `diff-tree -r -z --raw`: ":<mode> <mode> <oid> <oid> <status>\0<path>\0[<path>\0]". */
export function parseRawDiff(out: string): RawEntry[] {
  const fields = out.split("\0");
  const entries: RawEntry[] = [];
  for (let i = 0; i < fields.length; ) {
    const meta = fields[i++]!;
    if (!meta.startsWith(":")) continue;
    const [srcMode = "", dstMode = "", , , status = ""] = meta.slice(1).split(" ");
    const oldPath = fields[i++] ?? "";
    const newPath = status.startsWith("R") || status.startsWith("C") ? (fields[i++] ?? "") : oldPath;
    entries.push({
      entry: {
        oldPath,
        newPath,
        aMode: octalMode(srcMode),
        bMode: octalMode(dstMode),
        diff: "",
        newFile: status === "A",
        renamedFile: oldPath !== newPath,
        deletedFile: status === "D",
        collapsed: false,
        tooLarge: false,
      },
      sections: status === "T" ? 2 : 1,
    });
  }
  return entries;
}

/** Runs git, handing stdout chunks to `onData` until it returns false (then git is stopped). */
function streamGit(
  args: string[],
  o: { env: Record<string, string>; signal: AbortSignal },
  onData: (chunk: Buffer) => boolean,
): Promise<"done" | "stopped" | "aborted"> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return resolve("aborted");
    const child = spawn("git", args, { env: gitEnvironment(o.env), stdio: ["ignore", "pipe", "pipe"] });
    let outcome: "done" | "stopped" | "aborted" = "done";
    const stop = (why: "stopped" | "aborted") => {
      outcome = why;
      child.kill();
    };
    const onAbort = () => stop("aborted");
    o.signal.addEventListener("abort", onAbort, { once: true });
    const err: Buffer[] = [];
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdout.on("data", (c: Buffer) => {
      if (outcome === "done" && !onData(c)) stop("stopped");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      o.signal.removeEventListener("abort", onAbort);
      if (outcome !== "done" || code === 0) resolve(outcome);
      else reject(new GitError(args, code, Buffer.concat(err).toString("utf8")));
    });
  });
}

/**
 * Splits `diff-tree -p` output into per-file sections and keeps each section's patch body (from
 * the first "@@" or "Binary files" line), stopping early once a body exceeds `maxBody` bytes.
 */
class PatchSections {
  private pending: Buffer = Buffer.alloc(0);
  private body: Buffer[] | null = null;
  private bodyBytes = 0;
  private lines = 0;
  private inSection = false;

  constructor(
    private readonly maxBody: number,
    private readonly onSection: (s: { body: Buffer | null; lines: number }) => boolean,
  ) {}

  /** Feeds output; false once onSection asked to stop. */
  push(chunk: Buffer): boolean {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const eol = this.pending.indexOf(0x0a, start);
      if (eol === -1) break;
      if (!this.line(this.pending.subarray(start, eol + 1))) return false;
      start = eol + 1;
    }
    this.pending = this.pending.subarray(start);
    return true;
  }

  /** Ends the last section. */
  end(): void {
    if (this.pending.length) this.line(this.pending);
    this.finish();
  }

  private line(l: Buffer): boolean {
    if (l.subarray(0, 11).toString("latin1") === "diff --git ") {
      if (!this.finish()) return false;
      this.inSection = true;
      return true;
    }
    if (!this.inSection) return true;
    if (this.body === null) {
      const head = l.subarray(0, 13).toString("latin1");
      if (!head.startsWith("@@") && !head.startsWith("Binary files ")) return true;
      this.body = [];
    }
    this.lines++;
    this.bodyBytes += l.length;
    if (this.bodyBytes <= this.maxBody) this.body.push(l);
    return true;
  }

  private finish(): boolean {
    if (!this.inSection) return true;
    const body = this.body === null ? Buffer.alloc(0) : this.bodyBytes <= this.maxBody ? Buffer.concat(this.body) : null;
    const lines = this.lines;
    this.inSection = false;
    this.body = null;
    this.bodyBytes = 0;
    this.lines = 0;
    return this.onSection({ body, lines });
  }
}

/**
 * The changed files between `base` and `head` (commits or trees) with their patches, within
 * `limits` and `timeoutMs`. Files whose patch was not produced in time, or that come after the
 * limits were reached, are collapsed with an empty diff.
 */
export async function readDiffs(gitDir: string, base: string, head: string, o: DiffOptions = {}): Promise<DiffResult> {
  const limits = o.limits ?? COMPARE_DIFF_LIMITS;
  const env = o.env ?? {};
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs ?? COMPARE_DIFF_TIMEOUT_MS);
  try {
    const raw: Buffer[] = [];
    const listed = await streamGit(
      ["--git-dir", gitDir, "diff-tree", "-r", "-z", "--raw", "--no-commit-id", RENAMES, "--end-of-options", base, head],
      { env, signal: abort.signal },
      (c) => raw.push(c) > 0,
    );
    if (listed === "aborted") return { diffs: [], overflow: false, timedOut: true };
    const entries = parseRawDiff(Buffer.concat(raw).toString("utf8"));

    let index = 0; // entry receiving the next section
    let sectionsLeft = entries[0]?.sections ?? 0;
    let pending: { bodies: Buffer[]; lines: number; tooLarge: boolean } = { bodies: [], lines: 0, tooLarge: false };
    const total = { files: 0, lines: 0, bytes: 0 };
    let overflow = false;
    const done = new Set<number>();
    const sections = new PatchSections(limits.maxPatchBytes, (s) => {
      const current = entries[index];
      if (!current) return false;
      if (s.body === null) pending.tooLarge = true;
      else pending.bodies.push(s.body);
      pending.lines += s.lines;
      if (--sectionsLeft > 0) return true;
      const patch = Buffer.concat(pending.bodies);
      const { lines, tooLarge } = pending;
      pending = { bodies: [], lines: 0, tooLarge: false };
      const i = index++;
      sectionsLeft = entries[index]?.sections ?? 0;
      if (tooLarge || patch.length >= limits.maxPatchBytes) {
        current.entry.tooLarge = true;
        done.add(i);
        return true;
      }
      if (total.files >= limits.maxFiles || total.lines + lines >= limits.maxLines || total.bytes + patch.length >= limits.maxBytes) {
        overflow = true;
        return false;
      }
      total.files++;
      total.lines += lines;
      total.bytes += patch.length;
      current.entry.diff = patch.toString("utf8");
      done.add(i);
      return true;
    });
    const patched = entries.length
      ? await streamGit(
          [
            "--git-dir",
            gitDir,
            "diff-tree",
            "-r",
            "-p",
            "--no-color",
            "--no-ext-diff",
            "--full-index",
            "--no-commit-id",
            RENAMES,
            "--end-of-options",
            base,
            head,
          ],
          { env, signal: abort.signal },
          (c) => sections.push(c),
        )
      : "done";
    if (patched === "done") sections.end();
    entries.forEach(({ entry }, i) => {
      if (!done.has(i)) entry.collapsed = true;
    });
    return { diffs: entries.map((r) => r.entry), overflow, timedOut: patched === "aborted" };
  } finally {
    clearTimeout(timer);
  }
}
