// Snippet and project repository storage moves (GitLab's lib/api/snippet_repository_storage_moves.rb
// and project_repository_storage_moves.rb), administrators only. repo-service keeps the moves and
// runs them (storage/moves.ts); collab-service and identity-service supply the snippets and projects
// the entities show.
import { isNotFound } from "@quarry/grpc";
import type { Snippet__Output as Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { StorageMove__Output as StorageMove } from "@quarry/proto/types/repo/v1/StorageMove";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { projectRepositoryStorageMove, snippetRepositoryStorageMove } from "../../entities/repository-storage-move.ts";
import { requireAdmin, scope } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, declareParams, params, z } from "../../http/params.ts";
import { ctx } from "./context.ts";

type Ctx = ReturnType<typeof ctx>;
type Kind = "snippet" | "project";

export function repositoryStorageMovesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo, collab, identity } = deps;

  /** Snippet.find_by(id:) for an administrator: any snippet, else `404 Snippet Not Found`. */
  const findSnippet = async (c: Ctx, id: number): Promise<Snippet> => {
    try {
      return await collab.GetSnippet({ actor: c.actor, snippetId: id, project: "", forChange: false }, c.call);
    } catch (err) {
      if (isNotFound(err)) throw notFound("Snippet");
      throw err;
    }
  };
  /** find_project! for an administrator: by id or full path, else `404 Project Not Found`. */
  const findProject = (c: Ctx, idOrPath: string): Promise<Project> => identity.GetProject({ actor: c.actor, idOrPath }, c.call);

  /** The snippets or projects of a page of moves (one call each; a deleted one shows as null). */
  const present = async (c: Ctx, kind: Kind, moves: StorageMove[]) => {
    const ids = [...new Set(moves.map((m) => Number(m.containerId)))];
    const found = new Map<number, Snippet | Project>();
    await Promise.all(
      ids.map(async (id) => {
        const container = await (kind === "snippet"
          ? collab.GetSnippet({ actor: c.actor, snippetId: id, project: "", forChange: false }, c.call)
          : identity.GetProject({ actor: c.actor, idOrPath: String(id) }, c.call)
        ).catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
        if (container) found.set(id, container);
      }),
    );
    return moves.map((m) =>
      kind === "snippet"
        ? snippetRepositoryStorageMove(m, found.get(Number(m.containerId)) as Snippet | undefined, c.urls)
        : projectRepositoryStorageMove(m, found.get(Number(m.containerId)) as Project | undefined),
    );
  };

  const list = async (req: Request, res: Response, kind: Kind, containerId: number) => {
    const q = params(req, pageShape);
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const out = await repo.ListStorageMoves({ containerType: kind, containerId, page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(out.total), ...page });
    res.json(await present(c, kind, out.moves));
  };

  const oneShape = { repository_storage_id: p.id() };
  const one = async (req: Request, res: Response, kind: Kind, containerId: number) => {
    const q = params(req, oneShape);
    const c = ctx(deps, req, res);
    const move = await repo.GetStorageMove({ containerType: kind, id: q.repository_storage_id, containerId }, c.call);
    res.json((await present(c, kind, [move]))[0]);
  };

  /** POST …/repository_storage_moves (bulk): Grape's `values` check in repo-service, then `accepted!`. */
  const bulk = async (req: Request, res: Response, kind: Kind) => {
    const q = params(req, { source_storage_name: z.string(), destination_storage_name: z.string().optional() });
    const c = ctx(deps, req, res);
    await repo.ScheduleBulkStorageMoves(
      { containerType: kind, sourceStorageName: q.source_storage_name, destinationStorageName: q.destination_storage_name ?? "" },
      c.call,
    );
    res.status(202).json({ message: "202 Accepted" });
  };

  const destinationShape = { destination_storage_name: z.string().optional() };
  const destination = (req: Request) => params(req, destinationShape).destination_storage_name ?? "";

  // ---------------------------------------------------------------- snippets
  r.get("/snippet_repository_storage_moves", scope("read"), async (req, res) => {
    requireAdmin(req);
    await list(req, res, "snippet", 0);
  });
  r.get("/snippet_repository_storage_moves/:repository_storage_id", scope("read"), async (req, res) => {
    requireAdmin(req);
    await one(req, res, "snippet", 0);
  });
  r.post("/snippet_repository_storage_moves", scope("write"), async (req, res) => {
    requireAdmin(req);
    await bulk(req, res, "snippet");
  });

  const snippetOf = async (req: Request, res: Response) => {
    requireAdmin(req);
    const { snippet_id } = params(req, { snippet_id: p.id("Snippet") });
    return findSnippet(ctx(deps, req, res), snippet_id);
  };
  // The snippet and project routes look their container up first: their shapes are declared up front (declareParams).
  r.get("/snippets/:snippet_id/repository_storage_moves", scope("read"), declareParams(pageShape), async (req, res) => {
    const snippet = await snippetOf(req, res);
    await list(req, res, "snippet", Number(snippet.id));
  });
  r.get("/snippets/:snippet_id/repository_storage_moves/:repository_storage_id", scope("read"), declareParams(oneShape), async (req, res) => {
    const snippet = await snippetOf(req, res);
    await one(req, res, "snippet", Number(snippet.id));
  });
  r.post("/snippets/:snippet_id/repository_storage_moves", scope("write"), declareParams(destinationShape), async (req, res) => {
    const snippet = await snippetOf(req, res);
    const c = ctx(deps, req, res);
    const move = await repo.ScheduleStorageMove(
      { containerType: "snippet", containerId: Number(snippet.id), diskPath: "", destinationStorageName: destination(req) },
      c.call,
    );
    res.status(201).json(snippetRepositoryStorageMove(move, snippet, c.urls));
  });

  // ---------------------------------------------------------------- projects
  r.get("/project_repository_storage_moves", scope("read"), async (req, res) => {
    requireAdmin(req);
    await list(req, res, "project", 0);
  });
  r.get("/project_repository_storage_moves/:repository_storage_id", scope("read"), async (req, res) => {
    requireAdmin(req);
    await one(req, res, "project", 0);
  });
  r.post("/project_repository_storage_moves", scope("write"), async (req, res) => {
    requireAdmin(req);
    await bulk(req, res, "project");
  });

  const projectOf = (req: Request, res: Response) => {
    requireAdmin(req);
    return findProject(ctx(deps, req, res), String(req.params.id));
  };
  r.get("/projects/:id/repository_storage_moves", scope("read"), declareParams(pageShape), async (req, res) => {
    const project = await projectOf(req, res);
    await list(req, res, "project", Number(project.id));
  });
  r.get("/projects/:id/repository_storage_moves/:repository_storage_id", scope("read"), declareParams(oneShape), async (req, res) => {
    const project = await projectOf(req, res);
    await one(req, res, "project", Number(project.id));
  });
  r.post("/projects/:id/repository_storage_moves", scope("write"), declareParams(destinationShape), async (req, res) => {
    const project = await projectOf(req, res);
    const c = ctx(deps, req, res);
    const move = await repo.ScheduleStorageMove(
      { containerType: "project", containerId: Number(project.id), diskPath: project.diskPath, destinationStorageName: destination(req) },
      c.call,
    );
    res.status(201).json(projectRepositoryStorageMove(move, project));
  });

  return r;
}

/**
 * The storage each repository lives on (repo-service's record; `default` for one never placed), for
 * the `repository_storage` of project, group and snippet entities. No call for an empty list.
 */
export async function repositoryStorageNames(deps: GatewayDeps, req: Request, diskPaths: string[]): Promise<string[]> {
  const named = diskPaths.filter(Boolean);
  if (!named.length) return diskPaths.map(() => "default");
  const out = await deps.repo.GetRepositoryStorages({ diskPaths: named }, { requestId: req.requestId });
  const byPath = new Map(named.map((d, i) => [d, out.storageNames[i] ?? "default"]));
  return diskPaths.map((d) => byPath.get(d) ?? "default");
}
