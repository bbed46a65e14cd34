import type { ListUploadsRequest__Output } from "@quarry/proto/types/identity/v1/ListUploadsRequest";
import type { ListUploadsResponse } from "@quarry/proto/types/identity/v1/ListUploadsResponse";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { pageInfo, paging } from "./paging.ts";
import { MAINTAINER, projectPath, toUploadMessage, uploadProject } from "./uploads-common.ts";

/** GET /projects/:id/uploads: newest first (created_at, then id, descending); Maintainer. */
export const listUploads =
  (deps: IdentityDeps) =>
  async (req: ListUploadsRequest__Output): Promise<ListUploadsResponse> => {
    const project = await uploadProject(deps.prisma, actorOf(req.actor), req.project, MAINTAINER);
    const p = paging(req.page);
    const where = { projectId: project.id };
    const [total, rows] = await Promise.all([
      deps.prisma.upload.count({ where }),
      deps.prisma.upload.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: p.skip, take: p.take }),
    ]);
    const path = { pathWithNamespace: projectPath(project) };
    return { uploads: rows.map((u) => toUploadMessage(u, path)), pageInfo: pageInfo(total, p) };
  };
