import { AccessLevel } from "@quarry/gitlab";
import type { Actor__Output } from "@quarry/proto";
import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps } from "../deps.ts";
import type { ScopeProject } from "../issue/list-issues.ts";
import { relayRefusals } from "../upstream.ts";
import { type MergeRequestScope, resolveMergeRequestScope } from "./access.ts";
import { mergeRequestInclude, toMergeRequestMessages } from "./entity.ts";

/**
 * The visible projects whose merge requests the caller may read (ProjectPolicy's
 * read_merge_request): in a private project Guests do not see them. Only projects where the caller
 * is below Reporter and yet a member can be private ones it reads, so only those are asked about.
 */
export async function withReadableMergeRequests(deps: CollabDeps, actor: Actor__Output | null, projects: ScopeProject[]): Promise<ScopeProject[]> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  if (a.isAdmin || a.system !== "" || a.userId <= 0) return projects;
  const unsure = projects.filter((p) => p.level > 0 && p.level < AccessLevel.REPORTER);
  const privateIds = new Set<number>();
  for (const p of unsure) {
    const auth = await relayRefusals(deps.identity.Authorize({ actor: a, action: "read_project", project: String(p.id) }));
    if (auth.project?.visibility === "private") privateIds.add(p.id);
  }
  return projects.filter((p) => !privateIds.has(p.id));
}

/** Pages of identity's ListProjects asked for at once when collecting archived projects. */
const ARCHIVED_PAGE = 100;

/**
 * `non_archived`: the visible projects less the archived ones (identity's ListProjects with
 * archived=true, as the caller sees them).
 */
export async function withoutArchived(deps: CollabDeps, actor: Actor__Output | null, projects: ScopeProject[]): Promise<ScopeProject[]> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  const archived = new Set<number>();
  for (let page = 1; ; page++) {
    const list = await relayRefusals(
      deps.identity.ListProjects({ actor: a, archived: true, page: { page, perPage: ARCHIVED_PAGE }, orderBy: "id", sort: "asc" }),
    );
    for (const p of list.projects) archived.add(Number(p.id));
    if (list.projects.length < ARCHIVED_PAGE) break;
  }
  return archived.size ? projects.filter((p) => !archived.has(p.id)) : projects;
}

/**
 * The page's merge requests as messages, in the order of `ids`: each project's scope is resolved
 * once for the caller (a project list passes its own), then A's batch entity maps the rows.
 */
export async function listMergeRequestMessages(
  deps: CollabDeps,
  actor: Actor__Output | null,
  ids: number[],
  projectScope: MergeRequestScope | null,
): Promise<MergeRequest[]> {
  if (!ids.length) return [];
  const rows = await deps.prisma.mergeRequest.findMany({ where: { id: { in: ids } }, include: mergeRequestInclude });
  const ordered = ids.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
  const scopes = new Map<number, MergeRequestScope>();
  if (projectScope) scopes.set(projectScope.parent.id, projectScope);
  for (const projectId of new Set(ordered.map((r) => r.projectId))) {
    if (!scopes.has(projectId)) scopes.set(projectId, await resolveMergeRequestScope(deps, actor, String(projectId)));
  }
  return toMergeRequestMessages(deps, deps.prisma, ordered, (projectId) => scopes.get(projectId)!, { listing: true });
}
