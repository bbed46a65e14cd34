import type { DeleteLabelRequest__Output } from "@quarry/proto/types/collab/v1/DeleteLabelRequest";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { CollabDeps } from "../deps.ts";
import { findLabel } from "./find.ts";
import { requireAdminLabel, resolveParent } from "./parent.ts";

/** GitLab's delete_label: a label of the parent itself, with admin_label; priorities and subscriptions go with it. */
export const deleteLabel =
  (deps: CollabDeps) =>
  async (req: DeleteLabelRequest__Output): Promise<Empty> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    const label = await findLabel(deps.prisma, parent, req.label, false);
    requireAdminLabel(parent);
    await deps.prisma.label.deleteMany({ where: { id: label.id } });
    return {};
  };
