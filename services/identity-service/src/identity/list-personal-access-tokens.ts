import type { ListPersonalAccessTokensRequest__Output } from "@quarry/proto/types/identity/v1/ListPersonalAccessTokensRequest";
import type { ListPersonalAccessTokensResponse } from "@quarry/proto/types/identity/v1/ListPersonalAccessTokensResponse";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { tokenToProto } from "./convert.ts";
import { pageInfo, paging } from "./paging.ts";

/** Administrators list everyone's tokens (or one user's); others only their own. */
export const listPersonalAccessTokens =
  (deps: IdentityDeps) =>
  async (req: ListPersonalAccessTokensRequest__Output): Promise<ListPersonalAccessTokensResponse> => {
    const actor = actorOf(req.actor);
    const and: Prisma.PersonalAccessTokenWhereInput[] = [];
    if (!actor.isAdmin) and.push({ userId: actor.userId });
    else if (Number(req.userId)) and.push({ userId: Number(req.userId) });
    const today = new Date(new Date().toISOString().slice(0, 10));
    if (req.state === "active") and.push({ revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: today } }] });
    if (req.state === "inactive") and.push({ OR: [{ revoked: true }, { expiresAt: { lte: today } }] });
    if (req.revoked !== undefined) and.push({ revoked: req.revoked });
    if (req.impersonation !== undefined) and.push({ impersonation: req.impersonation });
    if (req.search) and.push({ name: { contains: req.search, mode: "insensitive" } });
    const where = { AND: and };
    const p = paging(req.page);
    const [total, rows] = await Promise.all([
      deps.prisma.personalAccessToken.count({ where }),
      deps.prisma.personalAccessToken.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { tokens: rows.map((t) => tokenToProto(t)), pageInfo: pageInfo(total, p) };
  };
