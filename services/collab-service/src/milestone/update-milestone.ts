import type { Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { UpdateMilestoneRequest__Output } from "@quarry/proto/types/collab/v1/UpdateMilestoneRequest";
import type { CollabDeps } from "../deps.ts";
import { requireAdminMilestone, resolveParent } from "../label/parent.ts";
import { toMilestoneMessage } from "./entity.ts";
import { castDate, findMilestone, titleScopeWhere, validateMilestone } from "./rules.ts";

/** GitLab's update_milestone_for: title, description, dates ("" clears), state_event close/activate. */
export const updateMilestone =
  (deps: CollabDeps) =>
  async (req: UpdateMilestoneRequest__Output): Promise<Milestone> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    requireAdminMilestone(parent);
    const m = await findMilestone(deps.prisma, parent, Number(req.milestoneId));
    const attrs = {
      title: req.title ?? m.title,
      startDate: req.startDate !== undefined ? castDate(req.startDate) : m.startDate,
      dueDate: req.dueDate !== undefined ? castDate(req.dueDate) : m.dueDate,
    };
    const clashing = { AND: [titleScopeWhere(parent), { title: attrs.title }, { id: { not: m.id } }] };
    const taken = attrs.title !== m.title && (await deps.prisma.milestone.count({ where: clashing })) > 0;
    validateMilestone("update", attrs, taken);
    const state = req.stateEvent === "close" ? "closed" : req.stateEvent === "activate" ? "active" : m.state;
    const row = await deps.prisma.milestone.update({
      where: { id: m.id },
      data: { ...attrs, description: req.description !== undefined ? req.description : m.description, state },
    });
    return toMilestoneMessage(deps, parent, row);
  };
