import type { CreateMilestoneRequest__Output } from "@quarry/proto/types/collab/v1/CreateMilestoneRequest";
import type { Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { CollabDeps } from "../deps.ts";
import { requireAdminMilestone, resolveParent } from "../label/parent.ts";
import { toMilestoneMessage } from "./entity.ts";
import { castDate, titleScopeWhere, validateMilestone } from "./rules.ts";

/** GitLab's create_milestone_for: admin_milestone, the validations, the parent's next iid. */
export const createMilestone =
  (deps: CollabDeps) =>
  async (req: CreateMilestoneRequest__Output): Promise<Milestone> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    requireAdminMilestone(parent);
    const attrs = { title: req.title, startDate: castDate(req.startDate), dueDate: castDate(req.dueDate) };
    const row = await deps.prisma.$transaction(async (tx) => {
      const key = `${parent.kind}:${parent.id}`;
      // One creation per parent at a time: the counter row's lock also orders the title check.
      const counter = await tx.$queryRaw<{ last_iid: number }[]>`
        INSERT INTO milestone_iids (parent, last_iid) VALUES (${key}, 1)
        ON CONFLICT (parent) DO UPDATE SET last_iid = milestone_iids.last_iid + 1
        RETURNING last_iid`;
      const taken = (await tx.milestone.count({ where: { AND: [titleScopeWhere(parent), { title: attrs.title }] } })) > 0;
      validateMilestone("create", attrs, taken);
      return tx.milestone.create({
        data: {
          ...(parent.kind === "project" ? { projectId: parent.id } : { groupId: parent.id }),
          iid: Number(counter[0]!.last_iid),
          title: attrs.title,
          description: req.description ?? null,
          startDate: attrs.startDate,
          dueDate: attrs.dueDate,
        },
      });
    });
    return toMilestoneMessage(deps, parent, row);
  };
