import { VISIBILITIES } from "@quarry/gitlab";
import type { Snippet__Output as Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { SnippetFileInput } from "@quarry/proto/types/collab/v1/SnippetFileInput";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { contentDisposition } from "../../entities/file.ts";
import { snippetEntity } from "../../entities/snippet.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { assertNotBlank, filePathParam, p, pageShape, params, requestParams } from "../../http/params.ts";
import { usersById } from "./ci-context.ts";
import { repositoryStorageNames } from "./repository-storage-moves.ts";
import { ctx } from "./context.ts";

/**
 * Personal and project snippets (GitLab's lib/api/snippets.rb, project_snippets.rb and
 * helpers/snippets_helpers.rb), kept by collab-service with their files in repo-service's snippet
 * repositories. Who sees and changes what is collab-service's (SnippetsFinder, the snippet
 * policies); here are Grape's parameter rules and the entities. Not here: user_agent_detail,
 * spam/CAPTCHA checks, restricted visibility levels.
 */
const UPDATE_FIELDS = ["content", "description", "files", "file_name", "title", "visibility"];
const FILE_ACTIONS = ["create", "update", "delete", "move"];
const visibility = () => p.enum(VISIBILITIES as unknown as [string, ...string[]]);
const listShape = { created_after: p.datetime().optional(), created_before: p.datetime().optional(), ...pageShape };

/** Grape's file_path validator (Gitlab::PathTraversal): no `..` segment, not absolute. */
const validPath = (path: string) => !path.startsWith("/") && !path.split(/[/\\]/).includes("..");

/** The files[] parameter with Grape's per-entry messages (`files[0][file_path] is missing`). */
function filesParam(req: Request, forUpdate: boolean): SnippetFileInput[] {
  const raw = requestParams(req).files;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : typeof raw === "object" ? Object.values(raw as object) : null;
  if (!list || list.some((f) => !f || typeof f !== "object")) throw new ApiError(400, { error: "files is invalid" });
  const errors: string[] = [];
  const files = (list as Record<string, unknown>[]).map((f, i) => {
    const field = (name: string) => (f[name] === undefined || f[name] === null ? undefined : String(f[name]));
    const [action, filePath, previousPath, content] = [field("action"), field("file_path"), field("previous_path"), field("content")];
    if (forUpdate) {
      if (action === undefined) errors.push(`files[${i}][action] is missing`);
      else if (!FILE_ACTIONS.includes(action)) errors.push(`files[${i}][action] does not have a valid value`);
    } else {
      if (filePath === undefined) errors.push(`files[${i}][file_path] is missing`);
      else if (!filePath.trim()) errors.push(`files[${i}][file_path] is empty`);
      if (content === undefined) errors.push(`files[${i}][content] is missing`);
      else if (!content.trim()) errors.push(`files[${i}][content] is empty`);
    }
    for (const [name, value] of [
      ["file_path", filePath],
      ["previous_path", previousPath],
    ] as const) {
      if (value && !validPath(value)) errors.push(`files[${i}][${name}] should be a valid file path`);
    }
    return { action: forUpdate ? (action ?? "") : "create", filePath: filePath ?? "", previousPath: previousPath ?? "", content };
  });
  if (errors.length) throw new ApiError(400, { error: errors.join(", ") });
  return files;
}

/** Grape's mutually_exclusive / exactly_one_of for files and the deprecated content. */
function checkExclusive(raw: Record<string, unknown>, creating: boolean): void {
  const has = (k: string) => raw[k] !== undefined && raw[k] !== null;
  if (has("files") && has("content")) throw new ApiError(400, { error: "files, content are mutually exclusive" });
  if (!creating && has("files") && has("file_name")) throw new ApiError(400, { error: "files, file_name are mutually exclusive" });
  if (creating && !has("files") && !has("content")) throw new ApiError(400, { error: "files, content are missing, exactly one parameter must be provided" });
  if (creating && has("content") && !has("file_name")) throw new ApiError(400, { error: "file_name is missing" });
}

export function snippetsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  /** Snippets as entities, their authors read in one call. */
  const present = async (req: Request, res: Response, snippets: Snippet[]) => {
    const c = ctx(deps, req, res);
    const users = await usersById(
      deps,
      req,
      snippets.map((s) => Number(s.authorId)),
    );
    const storages = c.actor.isAdmin
      ? await repositoryStorageNames(
          deps,
          req,
          snippets.map((s) => s.diskPath),
        )
      : [];
    return snippets.map((s, i) => snippetEntity(s, users.get(Number(s.authorId)), c.urls, c.actor.isAdmin, storages[i]));
  };

  const list = async (req: Request, res: Response, listScope: string, project = "") => {
    const q = params(req, listShape);
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const out = await collab.ListSnippets(
      {
        actor: c.actor,
        scope: listScope,
        project,
        createdAfter: q.created_after ? new Date(q.created_after).toISOString() : "",
        createdBefore: q.created_before ? new Date(q.created_before).toISOString() : "",
        page,
      },
      c.call,
    );
    c.paginate(out.pageInfo ? { total: Number(out.pageInfo.total), ...page } : null);
    res.json(await present(req, res, out.snippets));
  };

  const create = async (req: Request, res: Response, project: string) => {
    requireUser(req);
    const q = params(req, {
      title: p.string(),
      description: p.string().optional(),
      visibility: project ? visibility() : visibility().default("internal"),
      file_name: p.string().optional(),
      content: p.string().optional(),
    });
    const raw = requestParams(req);
    assertNotBlank(raw, ["title", "content"]);
    checkExclusive(raw, true);
    const files = filesParam(req, false);
    const c = ctx(deps, req, res);
    const s = await collab.CreateSnippet(
      { actor: c.actor, project, title: q.title, description: q.description, visibility: q.visibility, files, fileName: q.file_name, content: q.content },
      c.call,
    );
    res.status(201).json((await present(req, res, [s]))[0]);
  };

  const update = async (req: Request, res: Response, project: string, snippetId: number) => {
    requireUser(req);
    const q = params(req, {
      title: p.string().optional(),
      description: p.string().optional(),
      visibility: visibility().optional(),
      file_name: p.string().optional(),
      content: p.string().optional(),
    });
    const raw = requestParams(req);
    assertNotBlank(raw, ["title", "content"]);
    checkExclusive(raw, false);
    const files = filesParam(req, true);
    if (!UPDATE_FIELDS.some((f) => raw[f] !== undefined && raw[f] !== null)) {
      throw new ApiError(400, { error: `${UPDATE_FIELDS.join(", ")} are missing, at least one parameter must be provided` });
    }
    const c = ctx(deps, req, res);
    const s = await collab.UpdateSnippet(
      {
        ref: { actor: c.actor, snippetId, project, forChange: true },
        title: q.title,
        description: q.description,
        visibility: q.visibility,
        files,
        fileName: q.file_name,
        content: q.content,
      },
      c.call,
    );
    res.json((await present(req, res, [s]))[0]);
  };

  const remove = async (req: Request, res: Response, project: string, snippetId: number) => {
    requireUser(req);
    const c = ctx(deps, req, res);
    await collab.DeleteSnippet({ actor: c.actor, snippetId, project, forChange: true }, c.call);
    res.status(204).end();
  };

  /** send_git_blob as Workhorse answers it: text inline, anything else as an attachment, never sniffed or cached. */
  const raw = async (req: Request, res: Response, project: string, snippetId: number, gitRef = "", filePath = "") => {
    const c = ctx(deps, req, res);
    const out = await collab.ReadSnippetRaw({ ref: { actor: c.actor, snippetId, project, forChange: false }, gitRef, filePath }, c.call);
    const content = Buffer.from(out.content);
    const binary = content.subarray(0, 8000).includes(0);
    res.setHeader("Content-Type", binary ? "application/octet-stream" : "text/plain; charset=utf-8");
    res.setHeader("Content-Disposition", out.fileName ? contentDisposition(binary ? "attachment" : "inline", out.fileName) : "attachment");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cache-Control", "max-age=0, private, must-revalidate, no-store, no-cache");
    res.setHeader("Expires", "Fri, 01 Jan 1990 00:00:00 GMT");
    res.status(200).end(content);
  };

  // ---------------------------------------------------------------- personal (/snippets)
  // Before /snippets/:id: "public" and "all" are no ids.
  r.get("/snippets/public", scope("read"), async (req, res) => {
    requireUser(req);
    await list(req, res, "public");
  });
  r.get("/snippets/all", scope("read"), async (req, res) => {
    requireUser(req);
    await list(req, res, "all");
  });
  r.get("/snippets", scope("read"), async (req, res) => {
    requireUser(req);
    await list(req, res, "mine");
  });
  r.post("/snippets", scope("write"), (req, res) => create(req, res, ""));

  const snippetId = (req: Request) => params(req, { id: p.id("Snippet") }).id;
  r.get("/snippets/:id", scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const s = await collab.GetSnippet({ actor: c.actor, snippetId: snippetId(req), project: "", forChange: false }, c.call);
    res.json((await present(req, res, [s]))[0]);
  });
  r.put("/snippets/:id", scope("write"), (req, res) => update(req, res, "", snippetId(req)));
  r.delete("/snippets/:id", scope("write"), (req, res) => remove(req, res, "", snippetId(req)));
  r.get("/snippets/:id/raw", scope("read"), (req, res) => raw(req, res, "", snippetId(req)));
  r.get("/snippets/:id/files/:ref/:file_path/raw", scope("read"), (req, res) =>
    raw(req, res, "", snippetId(req), String(req.params.ref), filePathParam(req, "file_path")),
  );

  // ---------------------------------------------------------------- project (/projects/:id/snippets)
  const base = "/projects/:id/snippets";
  const project = (req: Request) => String(req.params.id);
  const projectSnippetId = (req: Request) => params(req, { snippet_id: p.id("Snippet") }).snippet_id;
  r.get(base, scope("read"), async (req, res) => {
    requireUser(req);
    await list(req, res, "project", project(req));
  });
  r.post(base, scope("write"), (req, res) => create(req, res, project(req)));
  r.get(`${base}/:snippet_id`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const s = await collab.GetSnippet({ actor: c.actor, snippetId: projectSnippetId(req), project: project(req), forChange: false }, c.call);
    res.json((await present(req, res, [s]))[0]);
  });
  r.put(`${base}/:snippet_id`, scope("write"), (req, res) => update(req, res, project(req), projectSnippetId(req)));
  r.delete(`${base}/:snippet_id`, scope("write"), (req, res) => remove(req, res, project(req), projectSnippetId(req)));
  r.get(`${base}/:snippet_id/raw`, scope("read"), (req, res) => raw(req, res, project(req), projectSnippetId(req)));
  r.get(`${base}/:snippet_id/files/:ref/:file_path/raw`, scope("read"), (req, res) =>
    raw(req, res, project(req), projectSnippetId(req), String(req.params.ref), filePathParam(req, "file_path")),
  );

  return r;
}
