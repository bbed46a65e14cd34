import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import { commitEntity } from "./commit.ts";

export interface BranchAccess {
  /** The caller may push to this branch. */
  canPush: boolean;
  /** The branch matches a protected-branch rule. */
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
}

/** A branch (GitLab's API::Entities::Branch). */
export function branchEntity(b: Branch, projectWebUrl: string, access: BranchAccess) {
  return {
    name: b.name,
    commit: b.commit ? commitEntity(b.commit, projectWebUrl) : null,
    merged: b.merged,
    protected: access.protected,
    developers_can_push: access.developersCanPush,
    developers_can_merge: access.developersCanMerge,
    can_push: access.canPush,
    default: b.default,
    web_url: `${projectWebUrl}/-/tree/${b.name}`,
  };
}
