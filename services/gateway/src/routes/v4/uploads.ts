import type { UploadFile__Output as UploadFile } from "@quarry/proto/types/identity/v1/UploadFile";
import { type Request, type Response, Router } from "express";
import { attachmentLimitBytes, type GatewayDeps } from "../../deps.ts";
import { contentDisposition } from "../../entities/file.ts";
import { markdownUploadAdminEntity, projectUploadEntity } from "../../entities/upload.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { acceptFiles, uploadedFile } from "../../http/uploads.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/**
 * The `:filename` of the secret routes: GitLab's file_path validator refuses any path traversal
 * (`..` segments, separators) before the project is looked at.
 */
function filenameParam(req: Request): string {
  const filename = String(req.params.filename);
  if (filename.split(/[\\/]/).some((part) => part === "..") || /[\\/]/.test(filename)) {
    throw new ApiError(400, { error: "filename should be a valid file path" });
  }
  return filename;
}

/** present_disk_file!: the bytes as an octet-stream attachment under the upload's name. */
function sendFile(res: Response, file: UploadFile) {
  const data = Buffer.from(file.data);
  res.setHeader("Content-Type", "application/octet-stream");
  res.setHeader("Content-Disposition", contentDisposition("attachment", file.upload?.filename ?? "file"));
  res.setHeader("Content-Transfer-Encoding", "binary");
  res.setHeader("Content-Length", String(data.length));
  res.end(res.req.method === "HEAD" ? undefined : data);
}

/**
 * Project Markdown uploads (GitLab's lib/api/markdown_uploads.rb), stored by identity-service:
 * uploading for any signed-in user who can see the project, listing, reading by id and deleting
 * for Maintainers, reading by secret for whoever can see the project.
 */
export function uploadsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  // One byte past max_attachment_size is all that is kept: enough to know the file is too large.
  const fileField = acceptFiles([{ name: "file", maxBytes: () => attachmentLimitBytes(deps) + 1 }]);
  r.post("/projects/:id/uploads", fileField, scope("write"), async (req, res) => {
    requireUser(req);
    const file = uploadedFile(req, "file");
    if (!file) {
      // A `file` that is a plain field is Grape's "invalid"; no `file` at all (a part named `..`
      // included: the multipart parser drops such names), "missing".
      const sent = req.body && typeof req.body === "object" && "file" in req.body;
      throw new ApiError(400, { error: sent ? "file is invalid" : "file is missing" });
    }
    if (file.truncated || file.data.length > attachmentLimitBytes(deps)) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    const c = ctx(deps, req, res);
    const upload = await identity.CreateUpload({ actor: c.actor, project: String(req.params.id), filename: file.filename, data: file.data }, c.call);
    res.status(201).json(projectUploadEntity(upload));
  });

  r.get("/projects/:id/uploads", scope("read"), async (req, res) => {
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const list = await identity.ListUploads({ actor: c.actor, project: String(req.params.id), page }, c.call);
    const users = await usersById(
      deps,
      req,
      list.uploads.map((u) => Number(u.uploadedById)),
    );
    c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
    res.json(list.uploads.map((u) => markdownUploadAdminEntity(u, users)));
  });

  r.get("/projects/:id/uploads/:upload_id", scope("read"), async (req, res) => {
    const q = params(req, { upload_id: p.id() });
    const c = ctx(deps, req, res);
    sendFile(res, await identity.GetUploadFile({ actor: c.actor, project: String(req.params.id), id: q.upload_id }, c.call));
  });

  r.get("/projects/:id/uploads/:secret/:filename", scope("read"), async (req, res) => {
    const filename = filenameParam(req);
    const c = ctx(deps, req, res);
    sendFile(res, await identity.GetUploadFile({ actor: c.actor, project: String(req.params.id), secret: String(req.params.secret), filename }, c.call));
  });

  r.delete("/projects/:id/uploads/:upload_id", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { upload_id: p.id() });
    const c = ctx(deps, req, res);
    await identity.DeleteUpload({ actor: c.actor, project: String(req.params.id), id: q.upload_id }, c.call);
    res.status(204).end();
  });

  r.delete("/projects/:id/uploads/:secret/:filename", scope("write"), async (req, res) => {
    requireUser(req);
    const filename = filenameParam(req);
    const c = ctx(deps, req, res);
    await identity.DeleteUpload({ actor: c.actor, project: String(req.params.id), secret: String(req.params.secret), filename }, c.call);
    res.status(204).end();
  });

  return r;
}
