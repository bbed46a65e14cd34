import type { UnprotectBranchRequest__Output } from "@quarry/proto/types/repo/v1/UnprotectBranchRequest";
import type { UnprotectBranchResponse } from "@quarry/proto/types/repo/v1/UnprotectBranchResponse";
import type { RepoDeps } from "../deps.ts";
import { findRule, ruleNotFound } from "./find-protected-branch.ts";
import { enqueueProtectedBranchAudit, type WithActor } from "../events/audit.ts";
import { protectionChanged } from "../protection/protection.ts";

/** Removes a rule (its access levels go with it); "404 Not found" when there is none. */
export const unprotectBranch =
  (deps: RepoDeps) =>
  async (req: WithActor<UnprotectBranchRequest__Output>): Promise<UnprotectBranchResponse> => {
    const rule = await findRule(deps, req.projectId, req.name);
    await deps.prisma
      .$transaction(async (tx) => {
        const { count } = await tx.protectedBranch.deleteMany({ where: { id: rule.id } });
        if (!count) throw ruleNotFound();
        await enqueueProtectedBranchAudit(tx, "removed", rule, req.actor);
      })
      .finally(() => protectionChanged(req.projectId));
    deps.outbox.kick();
    return {};
  };
