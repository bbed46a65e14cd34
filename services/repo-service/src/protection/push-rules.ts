// GitLab's checks of a git push (Gitlab::Checks::BranchCheck, TagCheck), decided from the
// ref-update commands before receive-pack runs. What needs the pushed objects — whether an
// update of a protected branch is a force push — is left to the pre-receive hook (hooks.ts).
import { AccessLevel, BRANCH_REF_PREFIX, TAG_REF_PREFIX } from "@quarry/gitlab";
import { isNullSha, type RefCommand } from "../git/pkt-line.ts";
import type { BranchProtection } from "./protection.ts";

export const PushMessages = {
  pushCode: "You are not allowed to push code to this project.",
  deleteDefaultBranch: "The default branch of a project cannot be deleted.",
  forcePushProtectedBranch: "You are not allowed to force push code to a protected branch on this project.",
  deleteProtectedBranch:
    "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.",
  nonWebDeleteProtectedBranch: "You can only delete protected branches using the web interface.",
  pushProtectedBranch: "You are not allowed to push code to protected branches on this project.",
  createProtectedBranch: "You are not allowed to create protected branches on this project.",
  nonWebCreateProtectedBranch: "You can only create protected branches using the web interface and API.",
  hexBranchName: "You cannot create a branch with a 40-character hexadecimal branch name.",
  defaultBranchTag: "You cannot use default branch name to create a tag",
} as const;

export interface PushFacts {
  protection: BranchProtection;
  /** The pusher's level (PushContext.access_level). */
  accessLevel: number;
  /** The project's default branch. */
  defaultBranch: string;
  /** Whether the repository has no branch yet. */
  emptyRepository: boolean;
  /** "namespace/project" and the project's web URL, for the empty-repository message. */
  pathWithNamespace: string;
  webUrl: string;
  /** A deploy key pushes: protected branches refuse it. */
  deployKey?: boolean;
}

export interface PushVerdict {
  /** Why the push is refused, or "" (GitLab refuses a whole push when one change is not allowed). */
  denied: string;
  /** Refs that may only fast-forward: protected branches whose rules allow no force push. */
  fastForwardOnly: string[];
}

/** Checks every command; the first refusal wins, as GitLab stops at the first failing change. */
export function checkPush(commands: readonly RefCommand[], facts: PushFacts): PushVerdict {
  const fastForwardOnly: string[] = [];
  let denied = "";
  for (const c of commands) {
    const refusal = c.ref.startsWith(BRANCH_REF_PREFIX) ? checkBranch(c, facts, fastForwardOnly) : c.ref.startsWith(TAG_REF_PREFIX) ? checkTag(c, facts) : "";
    if (refusal && !denied) denied = refusal;
  }
  if (!denied && commands.length && facts.accessLevel < AccessLevel.DEVELOPER) denied = PushMessages.pushCode;
  return { denied, fastForwardOnly };
}

function checkBranch(c: RefCommand, f: PushFacts, fastForwardOnly: string[]): string {
  const branch = c.ref.slice(BRANCH_REF_PREFIX.length);
  const deletion = isNullSha(c.newSha);
  const creation = isNullSha(c.oldSha);
  if (deletion && branch === f.defaultBranch) return PushMessages.deleteDefaultBranch;
  if (!deletion && /^[0-9a-fA-F]{40}(-\/|\/|$)/.test(branch)) return PushMessages.hexBranchName;
  if (!f.protection.isProtected(branch)) return "";
  if (!creation && !deletion && !f.protection.matching(branch).some((r) => r.allowForcePush)) fastForwardOnly.push(c.ref);
  const canPush = !f.deployKey && f.protection.allows("push", branch, f.accessLevel);
  if (f.emptyRepository) return canPush ? "" : emptyRepositoryMessage(f);
  if (creation) {
    if (canPush) return "";
    return f.protection.allows("merge", branch, f.accessLevel) ? PushMessages.nonWebCreateProtectedBranch : PushMessages.createProtectedBranch;
  }
  if (deletion) return f.accessLevel < AccessLevel.MAINTAINER ? PushMessages.deleteProtectedBranch : PushMessages.nonWebDeleteProtectedBranch;
  return canPush ? "" : PushMessages.pushProtectedBranch;
}

function checkTag(c: RefCommand, f: PushFacts): string {
  const tag = c.ref.slice(TAG_REF_PREFIX.length);
  if (isNullSha(c.oldSha) && !isNullSha(c.newSha) && tag === f.defaultBranch) return PushMessages.defaultBranchTag;
  return "";
}

function emptyRepositoryMessage(f: PushFacts): string {
  return [
    "",
    `A default branch (e.g. main) does not yet exist for ${f.pathWithNamespace}`,
    "Ask a project Owner or Maintainer to create a default branch:",
    "",
    `  ${f.webUrl}/-/project_members`,
    "",
  ].join("\n");
}
