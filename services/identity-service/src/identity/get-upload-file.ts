import { notFound } from "@quarry/grpc";
import { ObjectNotFoundError } from "@quarry/object-store";
import type { GetUploadFileRequest__Output } from "@quarry/proto/types/identity/v1/GetUploadFileRequest";
import type { UploadFile } from "@quarry/proto/types/identity/v1/UploadFile";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import type { ProjectRow } from "./convert.ts";
import { findProject } from "./lookup.ts";
import { findUpload, MAINTAINER, projectPath, toUploadMessage, uploadProject } from "./uploads-common.ts";

/**
 * An upload with its bytes. By id: Maintainer (ids can be enumerated, secrets cannot); by secret
 * and file name: whoever can see the project (GitLab's read_upload: Guest, anyone when public).
 * The web path's embeddable files skip the check when the project's enforce_auth_checks_on_uploads
 * is off (GitLab's bypass_auth_checks_on_uploads?): the secret is then the only protection.
 */
export const getUploadFile =
  (deps: IdentityDeps) =>
  async (req: GetUploadFileRequest__Output): Promise<UploadFile> => {
    const id = Number(req.id);
    const bypass = id === 0 && req.embeddable ? await findProject(deps.prisma, req.project) : null;
    const project: ProjectRow =
      bypass && !bypass.enforceAuthChecksOnUploads ? bypass : await uploadProject(deps.prisma, actorOf(req.actor), req.project, id > 0 ? MAINTAINER : 0);
    const upload = await findUpload(deps.prisma, project.id, { id, secret: req.secret, filename: req.filename });
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await deps.avatars.get(upload.objectKey)) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw notFound();
      throw err;
    }
    return { upload: toUploadMessage(upload, { pathWithNamespace: projectPath(project) }), data: Buffer.concat(chunks) };
  };
