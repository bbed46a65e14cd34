import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TreeCommitOptions {
  message?: string;
  parents?: string[];
  /** Files by full path (nested paths allowed) → content; a `{ gitlink }` value is a submodule entry. */
  files: Record<string, string | Buffer | { gitlink: string }>;
  author?: { name: string; email: string; date: string };
}

/** Writes a commit whose tree holds `files` (built in a scratch index) and returns its sha; no ref moves. */
export function treeCommit(gitDir: string, o: TreeCommitOptions): string {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "quarry-fixture-"));
  const author = o.author ?? { name: "Ada Lovelace", email: "ada@example.com", date: "2026-11-21T10:00:00+00:00" };
  const env = {
    ...process.env,
    GIT_INDEX_FILE: path.join(scratch, "index"),
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: author.date,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
    GIT_COMMITTER_DATE: author.date,
  };
  const git = (args: string[], input?: string | Buffer) => execFileSync("git", ["--git-dir", gitDir, ...args], { env, input, encoding: "utf8" }).trim();
  try {
    const lines = Object.entries(o.files).map(([file, content]) => {
      if (typeof content === "object" && !Buffer.isBuffer(content)) return `160000 ${content.gitlink}\t${file}`;
      return `100644 ${git(["hash-object", "-w", "--stdin"], content)}\t${file}`;
    });
    git(["update-index", "--index-info"], lines.join("\n") + "\n");
    const tree = git(["write-tree"]);
    const args = ["commit-tree", "--no-gpg-sign", tree];
    for (const p of o.parents ?? []) args.push("-p", p);
    return git(args, o.message ?? "A commit\n");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
