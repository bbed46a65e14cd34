import { randomBytes } from "node:crypto";
import { unauthenticated } from "@quarry/grpc";
import type { CreateUploadRequest__Output } from "@quarry/proto/types/identity/v1/CreateUploadRequest";
import type { Upload } from "@quarry/proto/types/identity/v1/Upload";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { addUploadsSize } from "./project-statistics.ts";
import { projectPath, sanitizeUploadFilename, toUploadMessage, uploadContentType, uploadObjectKey, uploadProject } from "./uploads-common.ts";

/**
 * POST /projects/:id/uploads (GitLab's UploadService): any signed-in user who can see the project;
 * the file under a new 32-character secret. The bytes are stored first and dropped again when
 * the row cannot be written, so nothing is left behind.
 */
export const createUpload =
  (deps: IdentityDeps) =>
  async (req: CreateUploadRequest__Output): Promise<Upload> => {
    const actor = actorOf(req.actor);
    if (!actor.userId && !actor.isAdmin) throw unauthenticated();
    const project = await uploadProject(deps.prisma, actor, req.project, 0);
    const filename = sanitizeUploadFilename(req.filename);
    const secret = randomBytes(16).toString("hex");
    const data = Buffer.from(req.data ?? []);
    const contentType = uploadContentType(filename);
    const objectKey = uploadObjectKey(project.id, secret, filename);
    await deps.avatars.put(objectKey, data, { size: data.length, contentType });
    try {
      const row = await deps.prisma.$transaction(async (tx) => {
        const created = await tx.upload.create({
          data: { projectId: project.id, secret, filename, size: data.length, contentType, objectKey, uploadedById: actor.userId || null },
        });
        await addUploadsSize(tx, project.id, data.length);
        return created;
      });
      return toUploadMessage(row, { pathWithNamespace: projectPath(project) });
    } catch (err) {
      await deps.avatars.deleteMany([objectKey]).catch(() => {});
      throw err;
    }
  };
