// Push / tag_push events for the refs a git push changed, built as GitLab's post-receive
// processing does (Git::BranchHooksService, Git::TagHooksService) and written to the outbox.
import { buildPushEvent, enqueueEvent, PUSH_COMMITS_LIMIT, pushSubject, type PushedCommit, type PushEventInput } from "@quarry/bus";
import { BRANCH_REF_PREFIX, TAG_REF_PREFIX } from "@quarry/gitlab";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { logCommits } from "../git/commits.ts";
import { git, resolveCommit } from "../git/git.ts";
import { isNullSha, type RefCommand } from "../git/pkt-line.ts";
import type { BranchProtection } from "../protection/protection.ts";
import { protectIfNewDefaultBranch, protectionChanged } from "../protection/protection.ts";

/** "<old> <new> <ref>" lines (what post-receive reads) as updates. */
export function parseRefUpdates(text: string): RefCommand[] {
  return text
    .split("\n")
    .map((line) => line.split(" "))
    .filter((f) => f.length === 3 && f.every(Boolean))
    .map(([oldSha, newSha, ref]) => ({ oldSha: oldSha!, newSha: newSha!, ref: ref! }));
}

export interface PushEventFacts {
  context: PushContext;
  protection: BranchProtection;
  /** Whether the repository had no branch before the push (every new branch then counts as the default one). */
  wasEmpty: boolean;
}

/** The event input for one applied update of a branch or tag; null for other refs. */
export async function pushEventInput(gitDir: string, u: RefCommand, f: PushEventFacts): Promise<PushEventInput | null> {
  const base = { context: f.context, before: u.oldSha, after: u.newSha, ref: u.ref };
  if (u.ref.startsWith(BRANCH_REF_PREFIX)) {
    const branch = u.ref.slice(BRANCH_REF_PREFIX.length);
    const { commits, total } = await branchCommits(gitDir, u, f.wasEmpty || branch === f.context.defaultBranch, f.context.defaultBranch);
    return { ...base, commits: await withChangedPaths(gitDir, commits), totalCommitsCount: total, refProtected: f.protection.isProtected(branch) };
  }
  if (u.ref.startsWith(TAG_REF_PREFIX)) {
    if (isNullSha(u.newSha)) return { ...base, commits: [], totalCommitsCount: 0 };
    const sha = await resolveCommit(gitDir, u.newSha);
    const commits = sha ? await logCommits(gitDir, ["--max-count=1", "--end-of-options", sha, "--"]) : [];
    return {
      ...base,
      checkoutSha: sha || null,
      message: await tagMessage(gitDir, u.ref, u.newSha),
      commits: await withChangedPaths(gitDir, commits),
      totalCommitsCount: commits.length,
    };
  }
  return null;
}

/**
 * The commits a branch update brought, oldest first (the newest PUSH_COMMITS_LIMIT), and their
 * number: a new default branch lists its history, another new branch what the default branch
 * lacks, an update what the old head lacks, a deletion nothing.
 */
async function branchCommits(gitDir: string, u: RefCommand, isDefault: boolean, defaultBranch: string) {
  if (isNullSha(u.newSha)) return { commits: [], total: 0 };
  let revisions = [u.newSha];
  if (!isNullSha(u.oldSha)) revisions = [u.newSha, `^${u.oldSha}`];
  else if (!isDefault && (await resolveCommit(gitDir, BRANCH_REF_PREFIX + defaultBranch))) revisions = [u.newSha, `^${BRANCH_REF_PREFIX}${defaultBranch}`];
  const [commits, count] = await Promise.all([
    logCommits(gitDir, [`--max-count=${PUSH_COMMITS_LIMIT}`, "--end-of-options", ...revisions, "--"]),
    git(["rev-list", "--count", ...revisions, "--"], { gitDir }),
  ]);
  return { commits: commits.reverse(), total: Number(count.stdout.trim()) };
}

/** The annotation of the annotated tag `ref` points at (without a signature), null for a lightweight tag. */
async function tagMessage(gitDir: string, ref: string, sha: string): Promise<string | null> {
  const { stdout } = await git(["for-each-ref", "--format=%(refname)%00%(objectname)%00%(objecttype)%00%(contents:subject)%00%(contents:body)%00", ref], {
    gitDir,
  });
  for (const record of stdout.split("\0\n")) {
    const [name, object, type, subject = "", body = ""] = record.split("\0");
    if (name !== ref || object !== sha) continue;
    if (type !== "tag") return null;
    return body.trim() ? `${subject}\n\n${body.trimEnd()}` : subject;
  }
  return null;
}

/** Adds the paths each commit added, modified and removed (against its first parent), with one `git diff-tree`. */
async function withChangedPaths(gitDir: string, commits: PushedCommit["commit"][]): Promise<PushedCommit[]> {
  if (!commits.length) return [];
  const { stdout } = await git(["diff-tree", "--stdin", "-r", "--root", "--no-renames", "--name-status", "-z", "--diff-merges=first-parent"], {
    gitDir,
    input: commits.map((c) => c.id).join("\n") + "\n",
  });
  const changes = new Map<string, { added: string[]; modified: string[]; removed: string[] }>();
  let current: { added: string[]; modified: string[]; removed: string[] } | undefined;
  const tokens = stdout.split("\0");
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(t)) {
      current = { added: [], modified: [], removed: [] };
      changes.set(t, current);
    } else if (current && /^[A-Z]$/.test(t)) {
      const file = tokens[++i] ?? "";
      (t === "A" ? current.added : t === "D" ? current.removed : current.modified).push(file);
    }
  }
  return commits.map((commit) => ({ commit, ...(changes.get(commit.id) ?? {}) }));
}

/** Writes the events in one transaction (after the refs moved: receive-pack owns the update), then kicks the relay. */
export async function recordPushEvents(deps: RepoDeps, inputs: readonly PushEventInput[]): Promise<void> {
  if (!inputs.length) return;
  await deps.prisma
    .$transaction(async (tx) => {
      for (const i of inputs) {
        await enqueueEvent(tx, pushSubject(i.ref), buildPushEvent(i));
        await protectIfNewDefaultBranch(tx, deps.defaultBranchProtection, i.context, { ref: i.ref, before: i.before });
      }
    })
    .finally(() => {
      // The default branch's rule may have been created with it.
      for (const i of inputs) protectionChanged(i.context.projectId);
    });
  deps.outbox.kick();
}
