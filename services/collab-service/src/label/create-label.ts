import { isUniqueViolation } from "@quarry/database";
import { conflict } from "@quarry/grpc";
import type { CreateLabelRequest__Output } from "@quarry/proto/types/collab/v1/CreateLabelRequest";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { CollabDeps } from "../deps.ts";
import { toLabelMessage } from "./entity.ts";
import { availableLabelsWhere, requireAdminLabel, resolveParent } from "./parent.ts";
import { cleanColor, cleanTitle, validateLabel } from "./validate.ts";

/**
 * GitLab's create_label: admin_label (Reporter+), 409 "Label already exists" when an available
 * label (the parent's groups' included) has the title, the model's validations, then the priority.
 */
export const createLabel =
  (deps: CollabDeps) =>
  async (req: CreateLabelRequest__Output): Promise<Label> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    requireAdminLabel(parent);
    const existing = await deps.prisma.label.findFirst({ where: { AND: [availableLabelsWhere(parent, true), { title: req.name }] } });
    if (existing) throw conflict("Label already exists");
    const attrs = { title: cleanTitle(req.name), color: cleanColor(req.color), description: req.description ?? null };
    const owner = parent.kind === "project" ? { projectId: parent.id } : { groupId: parent.id };
    const taken = (await deps.prisma.label.count({ where: { ...owner, title: attrs.title } })) > 0;
    validateLabel(attrs, taken);
    try {
      const row = await deps.prisma.$transaction(async (tx) => {
        const label = await tx.label.create({ data: { ...owner, ...attrs } });
        if (parent.kind === "project" && req.priority !== undefined) {
          await tx.labelPriority.create({ data: { projectId: parent.id, labelId: label.id, priority: req.priority } });
        }
        return label;
      });
      return toLabelMessage(deps.prisma, parent, row);
    } catch (err) {
      if (isUniqueViolation(err)) validateLabel(attrs, true);
      throw err;
    }
  };
