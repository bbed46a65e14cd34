import { AccessLevel } from "@quarry/gitlab";
import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListSnippetsRequest__Output } from "@quarry/proto/types/collab/v1/ListSnippetsRequest";
import type { ListSnippetsResponse } from "@quarry/proto/types/collab/v1/ListSnippetsResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import {
  levelsFor,
  personalSnippetsWhere,
  projectIfReadable,
  projectSnippetsWhere,
  readableProject,
  type SnippetProject,
  type Viewer,
  viewerOf,
} from "./access.ts";
import { toSnippetMessage } from "./entity.ts";

/** Authorizes each distinct project of the candidate snippets once; the readable ones by id. */
async function readableProjects(deps: CollabDeps, v: Viewer, where: Prisma.SnippetWhereInput): Promise<Map<number, SnippetProject>> {
  const rows = await deps.prisma.snippet.findMany({
    where: { AND: [where, { projectId: { not: null } }] },
    distinct: ["projectId"],
    select: { projectId: true },
  });
  const found = await Promise.all(rows.map((r) => projectIfReadable(deps, v, r.projectId!)));
  return new Map(found.filter((p): p is SnippetProject => p !== null).map((p) => [p.id, p]));
}

/**
 * GitLab's SnippetsFinder for the snippets API, newest first:
 * - "mine" (GET /snippets): the caller's own snippets, project ones only in projects it can read;
 * - "public" (GET /snippets/public): public personal snippets;
 * - "all" (GET /snippets/all): everything for administrators, otherwise the personal snippets the
 *   caller may see plus the snippets of readable projects (all of them in projects it is a member of);
 * - "project": a readable project's snippets (Snippet.for_project_with_user).
 */
export const listSnippets =
  (deps: CollabDeps) =>
  async (req: ListSnippetsRequest__Output): Promise<ListSnippetsResponse> => {
    const v = await viewerOf(deps, req.actor);
    const projects = new Map<number, SnippetProject>();
    let scope: Prisma.SnippetWhereInput;
    switch (req.scope) {
      case "project": {
        const p = await readableProject(deps, v, req.project);
        projects.set(p.id, p);
        scope = projectSnippetsWhere(v, p);
        break;
      }
      case "public":
        scope = { projectId: null, visibility: "public" };
        break;
      case "mine": {
        const own: Prisma.SnippetWhereInput = { authorId: v.userId };
        for (const [id, p] of await readableProjects(deps, v, own)) projects.set(id, p);
        scope = { authorId: v.userId, OR: [{ projectId: null }, { projectId: { in: [...projects.keys()] } }] };
        break;
      }
      case "all": {
        for (const [id, p] of await readableProjects(deps, v, {})) projects.set(id, p);
        if (v.isAdmin) {
          scope = {};
          break;
        }
        const members = [...projects.values()].filter((p) => p.accessLevel >= AccessLevel.GUEST).map((p) => p.id);
        const others = [...projects.values()].filter((p) => p.accessLevel < AccessLevel.GUEST).map((p) => p.id);
        const seen: Prisma.SnippetWhereInput[] = [{ visibility: { in: levelsFor(v) } }];
        if (v.userId > 0) seen.push({ authorId: v.userId });
        scope = { OR: [personalSnippetsWhere(v), { projectId: { in: members } }, { projectId: { in: others }, OR: seen }] };
        break;
      }
      default:
        throw paramError("scope does not have a valid value");
    }
    const filters: Prisma.SnippetWhereInput[] = [scope];
    if (req.createdAfter) filters.push({ createdAt: { gt: new Date(req.createdAfter) } });
    if (req.createdBefore) filters.push({ createdAt: { lt: new Date(req.createdBefore) } });
    const where: Prisma.SnippetWhereInput = { AND: filters };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, rows] = await Promise.all([
      deps.prisma.snippet.count({ where }),
      deps.prisma.snippet.findMany({ where, orderBy: { id: "desc" }, skip: offset, take: limit }),
    ]);
    const snippets = await Promise.all(rows.map((s) => toSnippetMessage(deps, s, s.projectId !== null ? (projects.get(s.projectId) ?? null) : null)));
    return { snippets, pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
