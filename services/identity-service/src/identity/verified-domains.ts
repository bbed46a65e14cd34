// Verified domains of a top-level group (Quarry extension; GitLab.com verifies group domains in its
// UI as pages domains). A domain is proven with GitLab's TXT record
// `_gitlab-pages-verification-code.<domain>` holding `gitlab-pages-verification-code=<code>`; once
// verified, users whose confirmed primary e-mail is on it become the group's enterprise users.
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { badRequest, forbidden, ServiceError, status } from "@quarry/grpc";
import type { CreateVerifiedDomainRequest__Output } from "@quarry/proto/types/identity/v1/CreateVerifiedDomainRequest";
import type { ListVerifiedDomainsRequest__Output } from "@quarry/proto/types/identity/v1/ListVerifiedDomainsRequest";
import type { ListVerifiedDomainsResponse } from "@quarry/proto/types/identity/v1/ListVerifiedDomainsResponse";
import type { VerifiedDomain as DomainMsg } from "@quarry/proto/types/identity/v1/VerifiedDomain";
import type { VerifiedDomainRequest__Output } from "@quarry/proto/types/identity/v1/VerifiedDomainRequest";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { Namespace, VerifiedDomain } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { claimUsersOnDomain, enterpriseGroupOf } from "./enterprise-users.ts";
import { pageInfo, paging } from "./paging.ts";

type Db = PrismaClient | Tx;

/** GitLab's names: the record and the value prefix (PagesDomain#verification_record). */
export const VERIFICATION_RECORD_PREFIX = "_gitlab-pages-verification-code.";
export const VERIFICATION_VALUE_PREFIX = "gitlab-pages-verification-code=";

const domainNotFound = () => new ServiceError(status.NOT_FOUND, { message: "404 Domain Not Found" });
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A lower-cased host name of two or more labels, or a 400 as GitLab's domain validation answers. */
export function normalizeDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, "");
  const labels = domain.split(".");
  if (!domain || domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1) ?? "")) {
    throw badRequest({ domain: ["is invalid"] });
  }
  return domain;
}

async function toProto(db: Db, d: VerifiedDomain): Promise<DomainMsg> {
  const count = d.verifiedAt ? await db.user.count({ where: { enterpriseGroupId: d.namespaceId, email: { endsWith: `@${d.domain}` } } }) : 0;
  return {
    domain: d.domain,
    verified: Boolean(d.verifiedAt),
    verificationCode: d.verificationCode,
    verificationRecord: `${VERIFICATION_RECORD_PREFIX}${d.domain}`,
    verifiedAt: d.verifiedAt?.toISOString() ?? "",
    createdAt: d.createdAt.toISOString(),
    groupId: d.namespaceId,
    enterpriseUsersCount: count,
  };
}

async function domainOf(db: Db, group: Namespace, input: string): Promise<VerifiedDomain> {
  const domain = input.trim().toLowerCase().replace(/\.$/, "");
  const row = await db.verifiedDomain.findFirst({ where: { namespaceId: group.id, domain } });
  if (!row) throw domainNotFound();
  return row;
}

export const listVerifiedDomains =
  (deps: IdentityDeps) =>
  async (req: ListVerifiedDomainsRequest__Output): Promise<ListVerifiedDomainsResponse> => {
    const group = await enterpriseGroupOf(deps.prisma, actorOf(req.actor), req.group);
    const p = paging(req.page);
    const where = { namespaceId: group.id };
    const [total, rows] = await Promise.all([
      deps.prisma.verifiedDomain.count({ where }),
      deps.prisma.verifiedDomain.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { domains: await Promise.all(rows.map((r) => toProto(deps.prisma, r))), pageInfo: pageInfo(total, p) };
  };

/** Adds a domain with a new verification code; an administrator may add it verified, which claims its users at once. */
export const createVerifiedDomain =
  (deps: IdentityDeps) =>
  async (req: CreateVerifiedDomainRequest__Output): Promise<DomainMsg> => {
    const actor = actorOf(req.actor);
    const domain = normalizeDomain(req.domain);
    return deps.prisma.$transaction(async (tx) => {
      const group = await enterpriseGroupOf(tx, actor, req.group);
      if (req.verified && !actor.isAdmin) throw forbidden("403 Forbidden - only administrators may add a verified domain");
      if (await tx.verifiedDomain.findUnique({ where: { domain } })) throw badRequest({ domain: ["has already been taken"] });
      const row = await tx.verifiedDomain.create({
        data: { namespaceId: group.id, domain, verificationCode: randomBytes(16).toString("hex"), verifiedAt: req.verified ? new Date() : null },
      });
      if (row.verifiedAt) await claimUsersOnDomain(tx, group.id, domain);
      return toProto(tx, row);
    });
  };

/** Removes a domain; users it claimed stay enterprise users of the group. */
export const deleteVerifiedDomain =
  (deps: IdentityDeps) =>
  async (req: VerifiedDomainRequest__Output): Promise<Record<string, never>> => {
    const group = await enterpriseGroupOf(deps.prisma, actorOf(req.actor), req.group);
    const row = await domainOf(deps.prisma, group, req.domain);
    await deps.prisma.verifiedDomain.delete({ where: { id: row.id } });
    return {};
  };

/** The TXT records of `name` (each record's strings joined), none when the name does not resolve. */
async function txtRecords(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch {
    return [];
  }
}

/** Whether the domain's TXT records hold its code (GitLab's VerifyPagesDomainService: the record name, or the domain itself). */
export async function domainProven(servers: string[], domain: string, code: string): Promise<boolean> {
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  if (servers.length) resolver.setServers(servers);
  const expected = `${VERIFICATION_VALUE_PREFIX}${code}`;
  for (const name of [`${VERIFICATION_RECORD_PREFIX}${domain}`, domain]) {
    if ((await txtRecords(resolver, name)).some((r) => r.includes(expected))) return true;
  }
  return false;
}

/** Looks the TXT record up; on a match the domain is verified and its users are claimed. */
export const verifyVerifiedDomain =
  (deps: IdentityDeps) =>
  async (req: VerifiedDomainRequest__Output): Promise<DomainMsg> => {
    const actor = actorOf(req.actor);
    const group = await enterpriseGroupOf(deps.prisma, actor, req.group);
    const row = await domainOf(deps.prisma, group, req.domain);
    if (row.verifiedAt) return toProto(deps.prisma, row);
    if (!(await domainProven(deps.dnsServers, row.domain, row.verificationCode))) {
      throw badRequest(`400 Bad request - Failed to verify domain ownership: no TXT record ${VERIFICATION_RECORD_PREFIX}${row.domain} holds the code`);
    }
    return deps.prisma.$transaction(async (tx) => {
      // Conditional: a domain removed or already verified meanwhile is left as it is.
      const { count } = await tx.verifiedDomain.updateMany({ where: { id: row.id, verifiedAt: null }, data: { verifiedAt: new Date() } });
      if (count) await claimUsersOnDomain(tx, group.id, row.domain);
      const now = await tx.verifiedDomain.findUnique({ where: { id: row.id } });
      if (!now) throw domainNotFound();
      return toProto(tx, now);
    });
  };
