// How users become enterprise users of a top-level group (Quarry's mechanism, see README): a
// verified domain of their confirmed primary e-mail (verified-domains.ts), or an administrator's
// provisioned_by_group_id (update-user.ts). Kept apart from enterprise-users.ts so that user
// creation and e-mail confirmation can claim without importing the deletion paths.
import { badRequest, notFound } from "@quarry/grpc";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { enqueueAccessChange } from "./access-changes.ts";

type Db = PrismaClient | Tx;

/** The columns a claim sets. */
export interface Claim {
  enterpriseGroupId: number;
  enterpriseGroupAssociatedAt: Date;
}

/** Users that can be claimed: humans only (service accounts, bots and internal users never are). */
export const CLAIMABLE: Prisma.UserWhereInput = { userType: "human", bot: false };

/**
 * Claims every unclaimed user whose confirmed primary e-mail is on `domain` for `groupId`
 * (a domain that just became verified). Returns how many were claimed.
 */
export async function claimUsersOnDomain(db: Db, groupId: number, domain: string): Promise<number> {
  const { count } = await db.user.updateMany({
    where: { ...CLAIMABLE, enterpriseGroupId: null, confirmedAt: { not: null }, email: { endsWith: `@${domain.toLowerCase()}` } },
    data: { enterpriseGroupId: groupId, enterpriseGroupAssociatedAt: new Date() },
  });
  if (count) await enqueueAccessChange(db, { namespace_ids: [groupId] }); // the claimed users are not listed: evicts every cached answer
  return count;
}

/**
 * Claims one user when their confirmed primary e-mail is on a verified domain (after the user is
 * created, or confirms or is given a new primary e-mail). A user already claimed stays with their group.
 */
export async function claimByVerifiedDomain(db: Db, userId: number): Promise<Claim | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, confirmedAt: true, enterpriseGroupId: true, userType: true, bot: true },
  });
  if (!user || user.enterpriseGroupId || !user.confirmedAt || user.userType !== "human" || user.bot) return null;
  const domain = user.email.slice(user.email.lastIndexOf("@") + 1);
  const verified = await db.verifiedDomain.findFirst({ where: { domain, verifiedAt: { not: null } }, select: { namespaceId: true } });
  if (!verified) return null;
  const claim = { enterpriseGroupId: verified.namespaceId, enterpriseGroupAssociatedAt: new Date() };
  const { count } = await db.user.updateMany({ where: { id: userId, enterpriseGroupId: null }, data: claim });
  if (count) await enqueueAccessChange(db, { user_ids: [userId] });
  return count ? claim : null;
}

/**
 * Quarry's administrator parameter provisioned_by_group_id of PUT /users/:id: the top-level group
 * provisions the account and, for a human not yet claimed by another group, claims it.
 */
export async function provisioningClaim(
  db: Db,
  user: { userType: string; bot: boolean; enterpriseGroupId: number | null },
  groupId: number,
): Promise<Prisma.UserUpdateInput> {
  const group = await db.namespace.findFirst({ where: { id: groupId, kind: "group" }, select: { id: true, parentId: true } });
  if (!group) throw notFound("Group");
  if (group.parentId) throw badRequest({ provisioned_by_group_id: ["must be a top-level group"] });
  const data: Prisma.UserUpdateInput = { provisionedByGroupId: group.id };
  if (user.userType === "human" && !user.bot && user.enterpriseGroupId !== group.id) {
    if (user.enterpriseGroupId) throw badRequest({ enterprise_group_id: ["the user is an enterprise user of another group"] });
    Object.assign(data, { enterpriseGroupId: group.id, enterpriseGroupAssociatedAt: new Date() });
  }
  return data;
}
