import { isUniqueViolation } from "@quarry/database";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { UpdateLabelRequest__Output } from "@quarry/proto/types/collab/v1/UpdateLabelRequest";
import type { CollabDeps } from "../deps.ts";
import { toLabelMessage } from "./entity.ts";
import { findLabel } from "./find.ts";
import { requireAdminLabel, resolveParent } from "./parent.ts";
import { cleanColor, cleanTitle, validateLabel } from "./validate.ts";

/**
 * GitLab's update_label: admin_label, a label of the parent itself (its groups' labels are
 * "404 Label Not Found" here), the model's validations ("has already been taken" for a title in
 * use), then the project priority (set, or removed with a null priority).
 */
export const updateLabel =
  (deps: CollabDeps) =>
  async (req: UpdateLabelRequest__Output): Promise<Label> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    requireAdminLabel(parent);
    const label = await findLabel(deps.prisma, parent, req.label, false);
    const attrs = {
      title: req.newName !== undefined ? cleanTitle(req.newName) : label.title,
      color: req.color !== undefined ? cleanColor(req.color) : label.color,
      description: req.description !== undefined ? req.description : label.description,
    };
    const changed = attrs.title !== label.title || attrs.color !== label.color || attrs.description !== label.description;
    if (req.newName !== undefined || req.color !== undefined || req.description !== undefined) {
      const owner = label.projectId !== null ? { projectId: label.projectId } : { groupId: label.groupId };
      const taken = attrs.title !== label.title && (await deps.prisma.label.count({ where: { ...owner, title: attrs.title, id: { not: label.id } } })) > 0;
      validateLabel(attrs, taken);
    }
    try {
      const row = await deps.prisma.$transaction(async (tx) => {
        const updated = changed ? await tx.label.update({ where: { id: label.id }, data: attrs }) : label;
        if (parent.kind === "project" && req.updatePriority) {
          const key = { projectId_labelId: { projectId: parent.id, labelId: label.id } };
          if (req.priority === undefined) await tx.labelPriority.deleteMany({ where: { projectId: parent.id, labelId: label.id } });
          else {
            const create = { projectId: parent.id, labelId: label.id, priority: req.priority };
            await tx.labelPriority.upsert({ where: key, create, update: { priority: req.priority } });
          }
        }
        return updated;
      });
      return toLabelMessage(deps.prisma, parent, row);
    } catch (err) {
      if (isUniqueViolation(err)) validateLabel(attrs, true);
      throw err;
    }
  };
