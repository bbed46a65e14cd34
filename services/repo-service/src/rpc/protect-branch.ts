import { isUniqueViolation } from "@quarry/database";
import { AccessLevel } from "@quarry/gitlab";
import { conflict, paramError } from "@quarry/grpc";
import type { ProtectBranchRequest__Output } from "@quarry/proto/types/repo/v1/ProtectBranchRequest";
import type { ProtectedBranch__Output as ProtectedBranch } from "@quarry/proto/types/repo/v1/ProtectedBranch";
import type { RepoDeps } from "../deps.ts";
import { protectionChanged, RULE_LEVELS, toProtectedBranchMessage, type AccessKind } from "../protection/protection.ts";
import { validateProjectId } from "../validate.ts";
import { enqueueProtectedBranchAudit, type WithActor } from "../events/audit.ts";

/** An access level from a request: one of GitLab's rule levels, `fallback` when unset. */
export function ruleLevel(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (!RULE_LEVELS.includes(value)) throw paramError(`${field} does not have a valid value`);
  return value;
}

/** Rule names are branch names or patterns: no control characters, not blank, bounded. */
export function validateRuleName(name: string): string {
  if (!name) throw paramError("name is missing");
  if (!name.trim() || name.length > 255 || /[\x00-\x1f\x7f]/.test(name)) throw paramError("name is invalid");
  return name;
}

/**
 * Protects a branch name or wildcard. Push, merge and unprotect default to Maintainers, as
 * GitLab's API does; protecting a name twice is 409 "Protected branch '<name>' already exists".
 */
export const protectBranch =
  (deps: RepoDeps) =>
  async (req: WithActor<ProtectBranchRequest__Output>): Promise<ProtectedBranch> => {
    const projectId = validateProjectId(req.projectId);
    const name = validateRuleName(req.name);
    const levels: Record<AccessKind, number> = {
      push: ruleLevel("push_access_level", req.pushAccessLevel, AccessLevel.MAINTAINER),
      merge: ruleLevel("merge_access_level", req.mergeAccessLevel, AccessLevel.MAINTAINER),
      unprotect: ruleLevel("unprotect_access_level", req.unprotectAccessLevel, AccessLevel.MAINTAINER),
    };
    try {
      const row = await deps.prisma
        .$transaction(async (tx) => {
          const created = await tx.protectedBranch.create({
            data: {
              projectId,
              name,
              allowForcePush: req.allowForcePush,
              codeOwnerApprovalRequired: req.codeOwnerApprovalRequired,
              accessLevels: { create: (["push", "merge", "unprotect"] as const).map((kind) => ({ kind, accessLevel: levels[kind] })) },
            },
            include: { accessLevels: true },
          });
          await enqueueProtectedBranchAudit(tx, "created", created, req.actor);
          return created;
        })
        .finally(() => protectionChanged(projectId));
      deps.outbox.kick();
      return toProtectedBranchMessage(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`Protected branch '${name}' already exists`);
      }
      throw err;
    }
  };
