// The one place that knows when a repository's refs may have changed. Every git process that can
// write refs reports its repository here when it ends (`git()` by its subcommand, the update-ref
// sessions after each transaction, receive-pack over HTTP and SSH in `runGitService`), as do the
// handlers that remove or replace a repository directory. Caches of refs compare the generation
// they were loaded at with the current one: a cached answer is only served while no ref write
// has ended since it was read.
import path from "node:path";

/** Repository directory → generation of its refs (absent = 0: never changed since start). */
const generations = new Map<string, number>();
/** Increases with every change anywhere, so a directory never sees a generation twice. */
let clock = 0;

/** Marks the refs of the repository at `gitDir` as changed (call after the change ended). */
export function refsChanged(gitDir: string): void {
  generations.set(path.resolve(gitDir), ++clock);
}

/** The current generation of the refs of the repository at `gitDir`. */
export function refsGeneration(gitDir: string): number {
  return generations.get(path.resolve(gitDir)) ?? 0;
}

/** Subcommands that never write a ref (git's own plumbing reads and object writes). */
const READ_ONLY = new Set([
  "archive",
  "blame",
  "cat-file",
  "check-ref-format",
  "cherry",
  "commit-tree",
  "config",
  "count-objects",
  "describe",
  "diff",
  "diff-tree",
  "for-each-ref",
  "fsck",
  "grep",
  "hash-object",
  "interpret-trailers",
  "log",
  "ls-remote",
  "ls-tree",
  "merge-base",
  "merge-tree",
  "mktag",
  "mktree",
  "name-rev",
  "range-diff",
  "rev-list",
  "rev-parse",
  "shortlog",
  "show",
  "show-ref",
  "upload-pack",
  "var",
  "verify-commit",
  "verify-tag",
  "version",
]);

/** Global options that take a separate value (`git -c k=v …`). */
const OPTIONS_WITH_VALUE = new Set(["-c", "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

/**
 * Whether `git <args>` (arguments after any `--git-dir`) may write a ref: anything but the
 * read-only subcommands above, `symbolic-ref` reading (one name, no `-d`) and receive-pack's
 * advertisement. Unknown subcommands count as writes.
 */
export function mayWriteRefs(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += OPTIONS_WITH_VALUE.has(args[i]!) ? 2 : 1;
  const command = args[i];
  if (command === undefined) return false;
  const rest = args.slice(i + 1);
  if (READ_ONLY.has(command)) return false;
  if (command === "symbolic-ref") return rest.includes("-d") || rest.includes("--delete") || rest.filter((a) => !a.startsWith("-")).length > 1;
  if (command === "receive-pack") return !rest.includes("--advertise-refs");
  return true;
}
