import { buildPushEvent, enqueueEvent, pushSubject, type PushEventInput } from "@quarry/bus";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { GitError } from "../git/git.ts";
import { protectIfNewDefaultBranch, protectionChanged } from "../protection/protection.ts";

/** A compare-and-swap ref change; NULL_SHA as `oldSha` creates the ref, as `newSha` deletes it. */
export interface RefChange {
  /** Full ref name ("refs/heads/<name>"). */
  ref: string;
  oldSha: string;
  newSha: string;
}

/** The compare-and-swap itself failed: the ref was not where the caller expected it (or is locked). */
export class RefUpdateError extends Error {
  constructor(
    readonly change: RefChange,
    readonly gitError: GitError,
  ) {
    super(`could not move ${change.ref} from ${change.oldSha} to ${change.newSha}: ${gitError.stderr.trim()}`);
    this.name = "RefUpdateError";
  }

  /** git's reason without the "fatal: " / "error: " (and update-ref's "prepare: ") prefix, first line only. */
  get reason(): string {
    const line = this.gitError.stderr.trim().split("\n")[0] ?? "";
    return line.replace(/^(fatal|error): /, "").replace(/^prepare: /, "");
  }
}

/** The compare-and-swap: one `update-ref` transaction with the expected old value (a delete when `newSha` is NULL_SHA). */
async function updateRef(deps: RepoDeps, gitDir: string, c: RefChange): Promise<void> {
  try {
    await deps.gitSessions.updateRef(gitDir, c.ref, c.newSha, c.oldSha);
  } catch (err) {
    if (err instanceof GitError) throw new RefUpdateError(c, err);
    throw err;
  }
}

/**
 * Changes a ref and records its push event: `update-ref` (the compare-and-swap) first, then a
 * short transaction inserting the outbox row (and, for a new default branch, its protection).
 * No transaction stays open while git runs. A failed CAS throws RefUpdateError and leaves
 * nothing behind; if recording fails after the ref moved, the ref is moved back, again as a CAS,
 * so no ref change goes out without its event and no event without its change. After the
 * commit the relay is kicked to publish at once.
 */
export async function changeRefWithEvent(
  deps: RepoDeps,
  gitDir: string,
  change: RefChange,
  // ref_protected is the caller's to say: it has loaded the rules to check the write anyway.
  event: Omit<PushEventInput, "before" | "after" | "ref" | "context" | "refProtected"> & { context: PushContext; refProtected: boolean },
): Promise<void> {
  const payload = buildPushEvent({ ...event, before: change.oldSha, after: change.newSha, ref: change.ref });
  await updateRef(deps, gitDir, change);
  try {
    await deps.prisma
      .$transaction(
        async (tx) => {
          await enqueueEvent(tx, pushSubject(change.ref), payload);
          await protectIfNewDefaultBranch(tx, deps.defaultBranchProtection, event.context, { ref: change.ref, before: change.oldSha });
        },
        { timeout: 30_000, maxWait: 10_000 },
      )
      .finally(() => protectionChanged(event.context.projectId));
  } catch (err) {
    await revert(deps, gitDir, change, err);
    throw err;
  }
  deps.outbox.kick();
}

async function revert(deps: RepoDeps, gitDir: string, change: RefChange, cause: unknown): Promise<void> {
  const back: RefChange = { ref: change.ref, oldSha: change.newSha, newSha: change.oldSha };
  try {
    await updateRef(deps, gitDir, back);
    deps.log.warn({ err: cause, ref: change.ref }, "recording the push event failed; ref change undone");
  } catch (err) {
    deps.log.error({ err, cause, gitDir, change }, "recording the push event failed and the ref change could not be undone");
  }
}
