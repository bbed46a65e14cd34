// Who may see and change snippets: GitLab's SnippetsFinder, PersonalSnippetPolicy and
// ProjectSnippetPolicy, with projects answered by identity-service's Authorize.
import { status } from "@grpc/grpc-js";
import { AccessLevel, isPositiveInt32 } from "@quarry/gitlab";
import { forbidden, notFound } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { CollabDeps } from "../deps.ts";
import type { Prisma, Snippet } from "../generated/prisma/client.ts";
import { relayRefusals } from "../upstream.ts";

/** The caller as the snippet rules need it. */
export interface Viewer {
  /** 0 = anonymous. */
  userId: number;
  /** Instance administrator (or a system caller): reads and changes everything. */
  isAdmin: boolean;
  /** External users see internal snippets only where they are members. */
  external: boolean;
  /** Name and e-mail: author and committer of the snippet's commits. */
  name: string;
  email: string;
  /** The actor to pass on to identity-service. */
  actor: { userId: number; isAdmin: boolean; system: string };
}

/** Reads the caller's account once (external flag, name and e-mail for commits). */
export async function viewerOf(deps: CollabDeps, actor: Actor__Output | null): Promise<Viewer> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  const viewer: Viewer = { userId: a.userId, isAdmin: a.isAdmin || a.system !== "", external: false, name: "", email: "", actor: a };
  if (a.userId > 0) {
    const { users } = await relayRefusals(deps.identity.GetUsers({ actor: a, ids: [a.userId] }));
    const u = users[0];
    if (u) Object.assign(viewer, { external: Boolean(u.external), name: u.name, email: u.email });
  }
  return viewer;
}

/** Gitlab::VisibilityLevel.levels_for_user: everything for administrators, public only for anonymous and external users. */
export function levelsFor(v: Viewer): string[] {
  if (v.isAdmin) return ["private", "internal", "public"];
  if (v.userId <= 0 || v.external) return ["public"];
  return ["internal", "public"];
}

/** A project as Authorize answered it for the caller. */
export interface SnippetProject {
  id: number;
  path: string;
  /** The caller's effective access level (0 = not a member). */
  accessLevel: number;
}

/** Authorize read_project: NOT_FOUND "404 Project Not Found" when the caller may not see it. */
export async function readableProject(deps: CollabDeps, v: Viewer, project: string): Promise<SnippetProject> {
  const auth = await relayRefusals(deps.identity.Authorize({ actor: v.actor, action: "read_project", project }));
  return { id: Number(auth.project!.id), path: auth.project!.pathWithNamespace, accessLevel: auth.accessLevel };
}

/** Like readableProject, but null when the project is invisible (or gone). */
export async function projectIfReadable(deps: CollabDeps, v: Viewer, projectId: number): Promise<SnippetProject | null> {
  try {
    return await readableProject(deps, v, String(projectId));
  } catch (err) {
    if ((err as { code?: number }).code === status.NOT_FOUND) return null;
    throw err;
  }
}

const isMember = (p: SnippetProject) => p.accessLevel >= AccessLevel.GUEST;

/**
 * Snippet.for_project_with_user: members see all of the project's snippets, others those of the
 * levels they may see.
 */
export function projectSnippetsWhere(v: Viewer, p: SnippetProject): Prisma.SnippetWhereInput {
  if (isMember(p) || v.isAdmin) return { projectId: p.id };
  return { projectId: p.id, visibility: { in: levelsFor(v) } };
}

/** Snippet.visible_to_or_authored_by for personal snippets. */
export function personalSnippetsWhere(v: Viewer): Prisma.SnippetWhereInput {
  const levels: Prisma.SnippetWhereInput = { projectId: null, visibility: { in: levelsFor(v) } };
  return v.userId > 0 ? { OR: [levels, { projectId: null, authorId: v.userId }] } : levels;
}

/** Whether the caller reads this snippet (the finder's rules for one row). */
export function canRead(v: Viewer, s: Snippet, project: SnippetProject | null): boolean {
  if (v.isAdmin) return true;
  if (s.projectId !== null) {
    if (!project) return false;
    if (isMember(project)) return true;
  }
  return levelsFor(v).includes(s.visibility) || (v.userId > 0 && s.authorId === v.userId);
}

/** A snippet with its project (null for a personal one). */
export interface FoundSnippet {
  snippet: Snippet;
  project: SnippetProject | null;
}

/**
 * Finds a snippet the caller may read: through a project route (`project` set: the project must
 * be readable, 404 Project Not Found, and own the snippet) or through /snippets/:id (any readable
 * snippet). With `forChange` on /snippets/:id only the caller's own snippets are found (GitLab's
 * snippets_for_current_user). Anything else is `404 Snippet Not Found`.
 */
export async function findSnippet(deps: CollabDeps, v: Viewer, snippetId: number, project: string, forChange = false): Promise<FoundSnippet> {
  const routeProject = project ? await readableProject(deps, v, project) : null;
  if (!isPositiveInt32(snippetId)) throw notFound("Snippet");
  const snippet = await deps.prisma.snippet.findUnique({ where: { id: snippetId } });
  if (!snippet) throw notFound("Snippet");
  if (routeProject && snippet.projectId !== routeProject.id) throw notFound("Snippet");
  if (!routeProject && forChange && snippet.authorId !== v.userId) throw notFound("Snippet");
  const owner = routeProject ?? (snippet.projectId !== null ? await projectIfReadable(deps, v, snippet.projectId) : null);
  if (!canRead(v, snippet, owner)) throw notFound("Snippet");
  return { snippet, project: owner };
}

/**
 * update_snippet / admin_snippet: the author, an administrator, or for a project snippet a
 * Maintainer of the project (403 otherwise).
 */
export function requireChange(v: Viewer, found: FoundSnippet): void {
  if (v.isAdmin || (v.userId > 0 && found.snippet.authorId === v.userId)) return;
  if (found.project && found.project.accessLevel >= AccessLevel.MAINTAINER) return;
  throw forbidden();
}
