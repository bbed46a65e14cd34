import type { GetLabelRequest__Output } from "@quarry/proto/types/collab/v1/GetLabelRequest";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { CollabDeps } from "../deps.ts";
import { toLabelMessage } from "./entity.ts";
import { findLabel } from "./find.ts";
import { resolveParent } from "./parent.ts";

/** GitLab's get_label: one available label by id or title ("404 Label Not Found" otherwise). */
export const getLabel =
  (deps: CollabDeps) =>
  async (req: GetLabelRequest__Output): Promise<Label> => {
    const parent = await resolveParent(deps, req.actor, req.parent);
    return toLabelMessage(deps.prisma, parent, await findLabel(deps.prisma, parent, req.label, req.includeAncestorGroups));
  };
