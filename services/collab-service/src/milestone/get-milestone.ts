import type { Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { MilestoneRef__Output } from "@quarry/proto/types/collab/v1/MilestoneRef";
import type { CollabDeps } from "../deps.ts";
import { resolveParent } from "../label/parent.ts";
import { toMilestoneMessage } from "./entity.ts";
import { findMilestone } from "./rules.ts";

/** GitLab's get_milestone_for: one of the parent's own milestones by id (`404 Not found` otherwise). */
export const getMilestone =
  (deps: CollabDeps) =>
  async (req: MilestoneRef__Output): Promise<Milestone> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    return toMilestoneMessage(deps, parent, await findMilestone(deps.prisma, parent, Number(req.milestoneId)));
  };
