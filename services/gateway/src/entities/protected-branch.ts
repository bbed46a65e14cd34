import { AccessLevel } from "@quarry/gitlab";
import type { ProtectedBranch__Output as ProtectedBranch } from "@quarry/proto/types/repo/v1/ProtectedBranch";
import type { ProtectedAccessLevel__Output as ProtectedAccessLevel } from "@quarry/proto/types/repo/v1/ProtectedAccessLevel";

/** GitLab's ProtectedRefAccess human names of the levels. */
const DESCRIPTIONS: Record<number, string> = {
  [AccessLevel.NO_ACCESS]: "No one",
  [AccessLevel.DEVELOPER]: "Developers + Maintainers",
  [AccessLevel.MAINTAINER]: "Maintainers",
  [AccessLevel.ADMIN]: "Admins",
};

/** One entry of push/merge/unprotect_access_levels (GitLab's ProtectedRefAccess entity). */
function accessLevelEntity(l: ProtectedAccessLevel, withDeployKey: boolean) {
  return {
    id: l.id,
    access_level: l.accessLevel,
    access_level_description: DESCRIPTIONS[l.accessLevel] ?? String(l.accessLevel),
    ...(withDeployKey ? { deploy_key_id: null } : {}),
    user_id: null,
    group_id: null,
  };
}

/** A protected branch rule (GitLab's API::Entities::ProtectedBranch). */
export function protectedBranchEntity(b: ProtectedBranch) {
  return {
    id: b.id,
    name: b.name,
    push_access_levels: b.pushAccessLevels.map((l) => accessLevelEntity(l, true)),
    merge_access_levels: b.mergeAccessLevels.map((l) => accessLevelEntity(l, false)),
    unprotect_access_levels: b.unprotectAccessLevels.map((l) => accessLevelEntity(l, false)),
    allow_force_push: b.allowForcePush,
    code_owner_approval_required: b.codeOwnerApprovalRequired,
    inherited: false,
  };
}
