import { isNotFound } from "@quarry/grpc";
import { type Request, type Response, Router } from "express";
import type { GatewayDeps } from "../deps.ts";
import { contentDisposition } from "../entities/file.ts";
import { isEmbeddable } from "../entities/upload.ts";
import { authenticate, scope } from "../http/auth.ts";
import { ctx } from "./v4/context.ts";

const notFoundPage = (res: Response) => res.status(404).type("text/plain").send("Not Found");

/**
 * The web path of a Markdown upload, `/<namespace>/<project>/uploads/<secret>/<filename>` and
 * `/-/project/<id>/uploads/<secret>/<filename>` (GitLab's Projects::UploadsController#show):
 * for whoever can see the project (credentials as for the API), or for anyone when the file is
 * embeddable and the project's enforce_auth_checks_on_uploads is off; anything else a 404. Safe
 * images, videos and audio are inline, everything else (SVG and HTML included) an attachment,
 * never sniffed.
 */
export function uploadsWebRouter(deps: GatewayDeps): Router {
  const r = Router();
  const serve = (project: (req: Request) => string) => async (req: Request, res: Response) => {
    const secret = String(req.params.secret);
    const filename = String(req.params.filename);
    if (!/^[0-9a-f]{32}$/.test(secret)) return void notFoundPage(res);
    const c = ctx(deps, req, res);
    let file: Awaited<ReturnType<GatewayDeps["identity"]["GetUploadFile"]>>;
    try {
      file = await deps.identity.GetUploadFile({ actor: c.actor, project: project(req), secret, filename, embeddable: isEmbeddable(filename) }, c.call);
    } catch (err) {
      if (isNotFound(err)) return void notFoundPage(res);
      throw err;
    }
    const data = Buffer.from(file.data);
    const inline = isEmbeddable(filename);
    res.setHeader("Content-Type", file.upload?.contentType || "application/octet-stream");
    res.setHeader("Content-Length", String(data.length));
    res.setHeader("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", filename));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.end(req.method === "HEAD" ? undefined : data);
  };
  r.get(
    "/-/project/:id/uploads/:secret/:filename",
    authenticate(deps, r),
    scope("read"),
    serve((req) => String(req.params.id)),
  );
  r.get(
    "/*namespace/:project/uploads/:secret/:filename",
    // `api` is a reserved top-level name (GitLab's): /api/v4/projects/:id/uploads/… is the API's.
    (req, _res, next) => ((req.params.namespace as unknown as string[])[0] === "api" ? next("route") : next()),
    authenticate(deps, r),
    scope("read"),
    serve((req) => `${(req.params.namespace as unknown as string[]).join("/")}/${req.params.project}`),
  );
  return r;
}
