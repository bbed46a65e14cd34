import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import { type Request, type Response, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { wikiAttachmentEntity, wikiPageBasicEntity, wikiPageEntity } from "../../entities/wiki-page.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { p, params, requestParams, wildcardParam } from "../../http/params.ts";
import { renderMarkup } from "../../http/render-markup.ts";
import { acceptFiles, uploadedFile } from "../../http/uploads.ts";
import { ctx } from "./context.ts";

const FORMATS = ["markdown", "rdoc", "asciidoc", "org"] as const;

/**
 * Project wikis (GitLab's lib/api/wikis.rb): pages are files of the project's wiki repository,
 * kept by repo-service. Reading needs what reading the project needs (read_wiki: Guest), writing
 * Developer (create_wiki), as GitLab's wiki policies. Not here: front matter, wiki_page_meta.
 */
export function wikisRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo, identity } = deps;
  const base = "/projects/:id/wikis";

  /** The project and the caller's right: read_project for reads, push_code (Developer) for writes. */
  const authorize = async (req: Request, res: Response, write: boolean) => {
    const c = ctx(deps, req, res);
    if (write) requireUser(req);
    const auth = await identity.Authorize({ actor: c.actor, action: write ? "push_code" : "read_project", project: String(req.params.id) }, c.call);
    return { c, project: auth.project! };
  };
  const author = (req: Request) => {
    const u = requireUser(req);
    return { user: { name: u.name, email: u.email }, username: u.username, userId: u.userId };
  };
  const slugOf = (req: Request) => wildcardParam(req, "slug");

  r.get(base, scope("read"), async (req, res) => {
    const q = params(req, { with_content: p.bool().optional() });
    const { c, project } = await authorize(req, res, false);
    const { pages } = await repo.ListWikiPages({ diskPath: project.diskPath, withContent: q.with_content ?? false }, c.call);
    res.json(pages.map((page) => (q.with_content ? wikiPageEntity(page) : wikiPageBasicEntity(page))));
  });

  const fileField = acceptFiles([{ name: "file", maxBytes: () => deps.config.maxAttachmentBytes + 1 }]);
  r.post(`${base}/attachments`, fileField, scope("write"), async (req, res) => {
    const q = params(req, { branch: p.ref("branch").optional() });
    const file = uploadedFile(req, "file");
    if (!file) {
      const sent = req.body && typeof req.body === "object" && "file" in req.body;
      throw new ApiError(400, { error: sent ? "file is invalid" : "file is missing" });
    }
    if (file.truncated || file.data.length > deps.config.maxAttachmentBytes) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    const { c, project } = await authorize(req, res, true);
    const attachment = await repo.CreateWikiAttachment(
      { diskPath: project.diskPath, user: author(req).user, fileName: file.filename, content: file.data, branch: q.branch ?? "" },
      c.call,
    );
    res.status(201).json(wikiAttachmentEntity(attachment));
  });

  r.get(`${base}/*slug`, scope("read"), async (req, res) => {
    const q = params(req, { render_html: p.bool().optional(), version: p.ref("version").optional() });
    const { c, project } = await authorize(req, res, false);
    const page = await repo.GetWikiPage({ diskPath: project.diskPath, slug: slugOf(req), version: q.version ?? "" }, c.call);
    res.json(entity(page, q.render_html ?? false));
  });

  r.post(base, scope("write"), async (req, res) => {
    const q = params(req, { title: p.string(), content: p.string(), format: p.enum(FORMATS).optional() });
    const { c, project } = await authorize(req, res, true);
    const page = await repo.CreateWikiPage(
      {
        diskPath: project.diskPath,
        projectId: project.id,
        ...author(req),
        title: q.title,
        content: Buffer.from(q.content),
        format: q.format ?? "markdown",
        message: "",
      },
      c.call,
    );
    res.status(201).json(wikiPageEntity(page));
  });

  r.put(`${base}/*slug`, scope("write"), async (req, res) => {
    const q = params(req, { title: p.string().optional(), content: p.string().optional(), format: p.enum(FORMATS).optional() });
    // Grape's at_least_one_of :content, :title, :format.
    const given = requestParams(req);
    if (!["content", "title", "format"].some((k) => given[k] !== undefined)) {
      throw new ApiError(400, { error: "content, title, format are missing, at least one parameter must be provided" });
    }
    const { c, project } = await authorize(req, res, true);
    const page = await repo.UpdateWikiPage(
      {
        diskPath: project.diskPath,
        projectId: project.id,
        ...author(req),
        slug: slugOf(req),
        title: q.title,
        content: q.content === undefined ? undefined : Buffer.from(q.content),
        format: q.format ?? "",
        message: "",
      },
      c.call,
    );
    res.json(wikiPageEntity(page));
  });

  r.delete(`${base}/*slug`, scope("write"), async (req, res) => {
    const { c, project } = await authorize(req, res, true);
    await repo.DeleteWikiPage({ diskPath: project.diskPath, projectId: project.id, ...author(req), slug: slugOf(req) }, c.call);
    res.status(204).end();
  });

  return r;
}

/** The page entity, its content rendered to sanitized HTML when asked for. */
function entity(page: WikiPage, renderHtml: boolean) {
  return wikiPageEntity(page, renderHtml ? renderMarkup(page.format, Buffer.from(page.content).toString("utf8")) : undefined);
}
