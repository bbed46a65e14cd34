import type { Empty } from "@quarry/proto/types/identity/v1/Empty";
import type { GetUploadFileRequest__Output } from "@quarry/proto/types/identity/v1/GetUploadFileRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { addUploadsSize } from "./project-statistics.ts";
import { findUpload, MAINTAINER, uploadProject } from "./uploads-common.ts";

/**
 * Deletes an upload, by id or by secret and file name (Maintainer, GitLab's destroy_upload). The
 * row goes first; a file left behind by a failed removal is logged (nothing names it any more).
 */
export const deleteUpload =
  (deps: IdentityDeps) =>
  async (req: GetUploadFileRequest__Output): Promise<Empty> => {
    const project = await uploadProject(deps.prisma, actorOf(req.actor), req.project, MAINTAINER);
    const upload = await findUpload(deps.prisma, project.id, { id: Number(req.id), secret: req.secret, filename: req.filename }, true);
    await deps.prisma.$transaction(async (tx) => {
      await tx.upload.delete({ where: { id: upload.id } });
      await addUploadsSize(tx, project.id, -upload.size);
    });
    await deps.avatars.deleteMany([upload.objectKey]).catch((err) => deps.log.warn({ err, key: upload.objectKey }, "upload removal failed"));
    return {};
  };
