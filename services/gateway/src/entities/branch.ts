import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import { commitEntity } from "./commit.ts";

/** A branch (GitLab's API::Entities::Branch); protection flags are computed for the caller by repo-service. */
export function branchEntity(b: Branch, projectWebUrl: string) {
  return {
    name: b.name,
    commit: b.commit ? commitEntity(b.commit, projectWebUrl) : null,
    merged: b.merged,
    protected: b.protected,
    developers_can_push: b.developersCanPush,
    developers_can_merge: b.developersCanMerge,
    can_push: b.canPush,
    default: b.default,
    web_url: `${projectWebUrl}/-/tree/${b.name}`,
  };
}
