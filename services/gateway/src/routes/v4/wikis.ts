import { createHash } from "node:crypto";
import { AccessLevel } from "@quarry/gitlab";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import { type Request, type Response, Router } from "express";
import { attachmentLimitBytes, type GatewayDeps } from "../../deps.ts";
import { parseFrontMatter, wikiAttachmentEntity, wikiPageBasicEntity, wikiPageEntity } from "../../entities/wiki-page.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError, forbidden } from "../../http/errors.ts";
import { p, params, requestParams, wildcardParam } from "../../http/params.ts";
import { renderMarkup } from "../../http/render-markup.ts";
import { acceptFiles, uploadedFile } from "../../http/uploads.ts";
import { ctx } from "./context.ts";

const FORMATS = ["markdown", "rdoc", "asciidoc", "org"] as const;

/**
 * Project wikis (GitLab's lib/api/wikis.rb): pages are files of the project's wiki repository,
 * kept by repo-service. Reading needs what reading the project needs (read_wiki: Guest), writing
 * Developer (create_wiki), as GitLab's wiki policies. Not here: wiki_page_meta.
 */
export function wikisRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo, identity } = deps;

  /**
   * The wiki's owner and the caller's right. Projects: read_project for reads, push_code
   * (Developer) for writes. Groups (GitLab's group wikis): whoever sees the group reads,
   * Developers of the group (or administrators) write. Webhook events name the project, or the group (`projectId` 0).
   */
  const authorize = async (req: Request, res: Response, write: boolean) => {
    const c = ctx(deps, req, res);
    if (write) requireUser(req);
    if (req.path.startsWith("/groups/")) {
      const auth = await identity.Authorize({ actor: c.actor, action: "read_group", group: String(req.params.id) }, c.call);
      if (write && auth.accessLevel < AccessLevel.DEVELOPER && !req.principal?.isAdmin) throw forbidden();
      return { c, target: { diskPath: groupWikiBase(Number(auth.group!.id)), projectId: 0, groupId: Number(auth.group!.id) } };
    }
    const auth = await identity.Authorize({ actor: c.actor, action: write ? "push_code" : "read_project", project: String(req.params.id) }, c.call);
    return { c, target: { diskPath: auth.project!.diskPath, projectId: Number(auth.project!.id), groupId: 0 } };
  };
  const author = (req: Request) => {
    const u = requireUser(req);
    return { user: { name: u.name, email: u.email }, username: u.username, userId: u.userId };
  };
  const slugOf = (req: Request) => wildcardParam(req, "slug");
  /** The project and the group form of a route. */
  const at = (suffix = "") => [`/projects/:id/wikis${suffix}`, `/groups/:id/wikis${suffix}`];

  r.get(at(), scope("read"), async (req, res) => {
    const q = params(req, { with_content: p.bool().optional() });
    const { c, target } = await authorize(req, res, false);
    const { pages } = await repo.ListWikiPages({ diskPath: target.diskPath, withContent: q.with_content ?? false }, c.call);
    res.json(pages.map((page) => (q.with_content ? wikiPageEntity(page) : wikiPageBasicEntity(page))));
  });

  const fileField = acceptFiles([{ name: "file", maxBytes: () => attachmentLimitBytes(deps) + 1 }]);
  r.post(at("/attachments"), fileField, scope("write"), async (req, res) => {
    const q = params(req, { branch: p.ref("branch").optional() });
    const file = uploadedFile(req, "file");
    if (!file) {
      const sent = req.body && typeof req.body === "object" && "file" in req.body;
      throw new ApiError(400, { error: sent ? "file is invalid" : "file is missing" });
    }
    if (file.truncated || file.data.length > attachmentLimitBytes(deps)) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    const { c, target } = await authorize(req, res, true);
    const attachment = await repo.CreateWikiAttachment(
      { diskPath: target.diskPath, user: author(req).user, fileName: file.filename, content: file.data, branch: q.branch ?? "" },
      c.call,
    );
    res.status(201).json(wikiAttachmentEntity(attachment));
  });

  r.get(at("/*slug"), scope("read"), async (req, res) => {
    const q = params(req, { render_html: p.bool().optional(), version: p.ref("version").optional() });
    const { c, target } = await authorize(req, res, false);
    const page = await repo.GetWikiPage({ diskPath: target.diskPath, slug: slugOf(req), version: q.version ?? "" }, c.call);
    res.json(entity(page, q.render_html ?? false));
  });

  r.post(at(), scope("write"), async (req, res) => {
    const q = params(req, { title: p.string(), content: p.string(), format: p.enum(FORMATS).optional() });
    const { c, target } = await authorize(req, res, true);
    const page = await repo.CreateWikiPage(
      {
        diskPath: target.diskPath,
        projectId: target.projectId,
        groupId: target.groupId,
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

  r.put(at("/*slug"), scope("write"), async (req, res) => {
    const q = params(req, { title: p.string().optional(), content: p.string().optional(), format: p.enum(FORMATS).optional() });
    // Grape's at_least_one_of :content, :title, :format.
    const given = requestParams(req);
    if (!["content", "title", "format"].some((k) => given[k] !== undefined)) {
      throw new ApiError(400, { error: "content, title, format are missing, at least one parameter must be provided" });
    }
    const { c, target } = await authorize(req, res, true);
    const page = await repo.UpdateWikiPage(
      {
        diskPath: target.diskPath,
        projectId: target.projectId,
        groupId: target.groupId,
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

  r.delete(at("/*slug"), scope("write"), async (req, res) => {
    const { c, target } = await authorize(req, res, true);
    await repo.DeleteWikiPage({ diskPath: target.diskPath, projectId: target.projectId, groupId: target.groupId, ...author(req), slug: slugOf(req) }, c.call);
    res.status(204).end();
  });

  return r;
}

/**
 * Where a group's wiki lives: GitLab's hashed group storage, `@groups/<h[0..2]>/<h[2..4]>/<h>`
 * with h = SHA-256 of the group id; repo-service appends `.wiki.git` as for projects.
 */
export function groupWikiBase(groupId: number): string {
  const h = createHash("sha256").update(String(groupId)).digest("hex");
  return `@groups/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
}

/** The page entity, its content (without front matter) rendered to sanitized HTML when asked for. */
function entity(page: WikiPage, renderHtml: boolean) {
  if (!renderHtml) return wikiPageEntity(page);
  return wikiPageEntity(page, renderMarkup(page.format, parseFrontMatter(Buffer.from(page.content).toString("utf8")).content));
}
