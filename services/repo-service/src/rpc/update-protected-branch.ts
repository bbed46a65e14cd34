import type { ProtectedBranch__Output as ProtectedBranch } from "@quarry/proto/types/repo/v1/ProtectedBranch";
import type { UpdateProtectedBranchRequest__Output } from "@quarry/proto/types/repo/v1/UpdateProtectedBranchRequest";
import type { RepoDeps } from "../deps.ts";
import { findRule } from "./find-protected-branch.ts";
import { ruleLevel } from "./protect-branch.ts";
import { protectionChanged, toProtectedBranchMessage, type AccessKind } from "../protection/protection.ts";
import { enqueueProtectedBranchAudit, type WithActor } from "../events/audit.ts";

/** Changes a rule's flags and access levels (GitLab's PATCH); unset fields keep their value. */
export const updateProtectedBranch =
  (deps: RepoDeps) =>
  async (req: WithActor<UpdateProtectedBranchRequest__Output>): Promise<ProtectedBranch> => {
    const rule = await findRule(deps, req.projectId, req.name);
    const changes: [AccessKind, number][] = [];
    for (const [kind, field, value] of [
      ["push", "push_access_level", req.pushAccessLevel],
      ["merge", "merge_access_level", req.mergeAccessLevel],
      ["unprotect", "unprotect_access_level", req.unprotectAccessLevel],
    ] as const) {
      if (value !== undefined && value !== null) changes.push([kind, ruleLevel(field, value, value)]);
    }
    const row = await deps.prisma
      .$transaction(async (tx) => {
        for (const [kind, accessLevel] of changes) {
          // One level per kind: replace what the rule had.
          await tx.protectedBranchAccessLevel.deleteMany({ where: { protectedBranchId: rule.id, kind } });
          await tx.protectedBranchAccessLevel.create({ data: { protectedBranchId: rule.id, kind, accessLevel } });
        }
        await enqueueProtectedBranchAudit(tx, "updated", rule, req.actor);
        return tx.protectedBranch.update({
          where: { id: rule.id },
          data: {
            ...(req.allowForcePush !== undefined && req.allowForcePush !== null ? { allowForcePush: req.allowForcePush } : {}),
            ...(req.codeOwnerApprovalRequired !== undefined && req.codeOwnerApprovalRequired !== null
              ? { codeOwnerApprovalRequired: req.codeOwnerApprovalRequired }
              : {}),
          },
          include: { accessLevels: true },
        });
      })
      .finally(() => protectionChanged(req.projectId));
    deps.outbox.kick();
    return toProtectedBranchMessage(row);
  };
