import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { MilestoneRef__Output } from "@quarry/proto/types/collab/v1/MilestoneRef";
import type { CollabDeps } from "../deps.ts";
import { requireAdminMilestone, resolveParent } from "../label/parent.ts";
import { findMilestone } from "./rules.ts";

/** GitLab's DELETE …/milestones/:milestone_id: admin_milestone, one of the parent's own milestones. */
export const deleteMilestone =
  (deps: CollabDeps) =>
  async (req: MilestoneRef__Output): Promise<Empty> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    requireAdminMilestone(parent);
    const m = await findMilestone(deps.prisma, parent, Number(req.milestoneId));
    await deps.prisma.milestone.deleteMany({ where: { id: m.id } });
    return {};
  };
