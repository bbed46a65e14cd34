import type { ListUsersRequest__Output } from "@quarry/proto/types/identity/v1/ListUsersRequest";
import type { ListUsersResponse } from "@quarry/proto/types/identity/v1/ListUsersResponse";
import type { IdentityDeps, PrismaClient } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { userToProto } from "./convert.ts";
import { pageInfo, paging } from "./paging.ts";
import { INTERNAL_USER_TYPES, userInclude } from "./users-common.ts";

const ORDERABLE = new Set(["id", "name", "username", "created_at", "updated_at"]);
const COLUMN: Record<string, keyof Prisma.UserOrderByWithRelationInput> = {
  id: "id",
  name: "name",
  username: "usernameLower",
  created_at: "createdAt",
  updated_at: "updatedAt",
};

/** States non-administrators never see in user lists (GitLab's User::FORBIDDEN_SEARCH_STATES). */
const FORBIDDEN_SEARCH_STATES = ["blocked", "banned", "ldap_blocked"];

/** GitLab's Gitlab::SQL::Pattern: words of 3+ characters match anywhere, a shorter query only as a whole. */
const MIN_CHARS_FOR_PARTIAL_MATCHING = 3;
const QUOTED_TERM = /(?<=^| )"[^"]+"(?= |$)/g;

function fuzzyWords(query: string): string[] {
  const quoted = query.match(QUOTED_TERM) ?? [];
  let rest = query;
  for (const q of quoted) rest = rest.replace(q, "");
  const words = [...rest.split(/\s+/).filter(Boolean), ...quoted.map((q) => q.slice(1, -1))];
  return words.filter((w) => w.length >= MIN_CHARS_FOR_PARTIAL_MATCHING);
}

/** fuzzy_arel_match on one column: every long word somewhere in it, else the whole query, case-insensitively. */
function fuzzyMatch(column: "name" | "username", query: string): Prisma.UserWhereInput {
  const words = fuzzyWords(query);
  if (words.length) return { AND: words.map((w) => ({ [column]: { contains: w, mode: "insensitive" } })) };
  return { [column]: { equals: query, mode: "insensitive" } };
}

/**
 * GitLab's User.search (use_minimum_char_limit): a leading @ dropped, the public e-mail exactly
 * (the primary e-mail too for administrators), name or username fuzzily.
 */
function searchWhere(search: string, isAdmin: boolean): Prisma.UserWhereInput | null {
  const query = search.replace(/^@/, "").trim().replace(/\s+/g, " ").toLowerCase();
  if (!query) return null;
  return {
    OR: [
      { publicEmail: { equals: query, mode: "insensitive" } },
      ...(isAdmin ? [{ email: { equals: query } }] : []),
      fuzzyMatch("name", query),
      fuzzyMatch("username", query),
    ],
  };
}

/** GitLab's search order: exact public e-mail, exact username, exact name, the rest; then name and id. */
function searchRank(u: { publicEmail: string; username: string; name: string }, query: string): number {
  if (u.publicEmail.toLowerCase() === query) return 0;
  if (u.username.toLowerCase() === query) return 1;
  if (u.name.toLowerCase() === query) return 2;
  return 3;
}

/** Users with access to no project (GitLab's without_projects: no project authorization at all). */
async function usersWithProjects(prisma: PrismaClient): Promise<number[]> {
  const rows = await prisma.$queryRaw<{ id: number }[]>`
    SELECT m.user_id AS id FROM members m WHERE m.source_type = 'project'
    UNION
    SELECT n.owner_id FROM namespaces n WHERE n.kind = 'user' AND n.owner_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM projects p WHERE p.namespace_id = n.id)
    UNION
    SELECT m.user_id FROM members m WHERE m.source_type = 'namespace' AND EXISTS (
      SELECT 1 FROM projects p JOIN namespaces g ON g.id = p.namespace_id WHERE g.traversal_ids @> ARRAY[m.source_id]::int[])`;
  return rows.map((r) => Number(r.id));
}

export const listUsers =
  (deps: IdentityDeps) =>
  async (req: ListUsersRequest__Output): Promise<ListUsersResponse> => {
    const actor = actorOf(req.actor);
    const p = paging(req.page);
    const and: Prisma.UserWhereInput[] = [];
    if (!actor.isAdmin) and.push({ state: { notIn: FORBIDDEN_SEARCH_STATES } });
    if (req.username) and.push({ usernameLower: req.username.toLowerCase() });
    if (req.publicEmail) and.push({ publicEmail: { equals: req.publicEmail, mode: "insensitive" } });
    const query = req.search.replace(/^@/, "").trim().replace(/\s+/g, " ").toLowerCase();
    if (req.search) {
      const where = searchWhere(req.search, actor.isAdmin);
      // A blank search finds nobody, as User.search.
      if (!where) return { users: [], pageInfo: pageInfo(0, p) };
      and.push(where);
    }
    if (req.active) and.push({ state: "active", userType: { notIn: INTERNAL_USER_TYPES } });
    if (req.excludeActive) and.push({ state: { not: "active" } });
    if (req.blocked) and.push({ state: { in: ["blocked", "ldap_blocked"] } });
    if (req.external) and.push({ external: true });
    if (req.excludeExternal) and.push({ external: false });
    if (req.humans) and.push({ userType: "human" });
    if (req.excludeHumans) and.push({ userType: { not: "human" } });
    if (req.excludeInternal) and.push({ userType: { notIn: INTERNAL_USER_TYPES } });
    if (req.withoutProjectBots) and.push({ userType: { not: "project_bot" } });
    if (req.createdAfter) and.push({ createdAt: { gt: new Date(req.createdAfter) } });
    if (req.createdBefore) and.push({ createdAt: { lt: new Date(req.createdBefore) } });
    if (Number(req.idAfter)) and.push({ id: { gt: Number(req.idAfter) } });
    if (Number(req.idBefore)) and.push({ id: { lt: Number(req.idBefore) } });
    // Administrators only (GitLab drops these parameters, or ignores them, for everyone else).
    if (actor.isAdmin) {
      if (req.admins) and.push({ isAdmin: true });
      if (req.twoFactor === "enabled") and.push({ twoFactorEnabled: true });
      if (req.twoFactor === "disabled") and.push({ twoFactorEnabled: false });
      if (req.withoutProjects) and.push({ id: { notIn: await usersWithProjects(deps.prisma) } });
      for (const ca of req.customAttributes) and.push({ customAttributes: { some: { key: ca.key, value: ca.value } } });
      // Identity lookup (the gateway answers 403 to others before asking).
      if (req.provider && req.externUid) {
        and.push({ identities: { some: { provider: req.provider, externUid: { equals: req.externUid, mode: "insensitive" } } } });
      }
    }
    const where: Prisma.UserWhereInput = and.length ? { AND: and } : {};
    const total = await deps.prisma.user.count({ where });

    // Non-administrators' searches come in GitLab's match order; everything else by order_by/sort
    // (administrators only; id descending by default).
    if (req.search && !actor.isAdmin) {
      const all = await deps.prisma.user.findMany({ where, select: { id: true, name: true, username: true, publicEmail: true } });
      all.sort((a, b) => searchRank(a, query) - searchRank(b, query) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.id - b.id);
      const ids = all.slice(p.skip, p.skip + p.take).map((u) => u.id);
      const rows = await deps.prisma.user.findMany({ where: { id: { in: ids } }, include: userInclude });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return { users: ids.map((id) => userToProto(byId.get(id)!)), pageInfo: pageInfo(total, p) };
    }
    const orderKey = actor.isAdmin && ORDERABLE.has(req.orderBy) ? req.orderBy : "id";
    const direction = actor.isAdmin && req.sort === "asc" ? "asc" : "desc";
    const users = await deps.prisma.user.findMany({
      where,
      orderBy: [{ [COLUMN[orderKey]!]: direction }, { id: direction }],
      skip: p.skip,
      take: p.take,
      include: userInclude,
    });
    return { users: users.map(userToProto), pageInfo: pageInfo(total, p) };
  };
