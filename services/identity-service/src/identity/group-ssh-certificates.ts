// Group SSH certificates (GitLab's Groups::SshCertificate, API::GroupSshCertificates): CA public
// keys of a top-level group; git over SSH takes user certificates they signed (authorize-ssh-key.ts).
import { AccessLevel } from "@quarry/gitlab";
import { failedPrecondition, forbidden, notFound } from "@quarry/grpc";
import type { CreateGroupSshCertificateRequest__Output } from "@quarry/proto/types/identity/v1/CreateGroupSshCertificateRequest";
import type { DeleteGroupSshCertificateRequest__Output } from "@quarry/proto/types/identity/v1/DeleteGroupSshCertificateRequest";
import type { GroupSshCertificate as CertificateMsg } from "@quarry/proto/types/identity/v1/GroupSshCertificate";
import type { ListGroupSshCertificatesRequest__Output } from "@quarry/proto/types/identity/v1/ListGroupSshCertificatesRequest";
import type { ListGroupSshCertificatesResponse } from "@quarry/proto/types/identity/v1/ListGroupSshCertificatesResponse";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { GroupSshCertificate, Namespace } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { requireLevel, visibleGroup } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { parseSshPublicKey } from "./ssh-public-key.ts";

type Db = PrismaClient | Tx;

const toProto = (c: GroupSshCertificate): CertificateMsg => ({ id: c.id, title: c.title, key: c.key, createdAt: c.createdAt.toISOString() });

/** The group, visible (404), the caller its Owner (403), and top-level (403 "Group"). */
async function ownedTopLevelGroup(db: Db, actor: ActorInfo, group: string): Promise<Namespace> {
  if (!actor.userId && !actor.system) throw forbidden();
  const { group: ns, level } = await visibleGroup(db, actor, group);
  requireLevel(actor, level, AccessLevel.OWNER);
  if (ns.parentId) throw forbidden("403 Forbidden - Group");
  return ns;
}

/** Rails' RecordInvalid message, answered 422 as GitLab's service does. */
const invalid = (detail: string) => failedPrecondition(`Validation failed: ${detail}`, 422);

export const listGroupSshCertificates =
  (deps: IdentityDeps) =>
  async (req: ListGroupSshCertificatesRequest__Output): Promise<ListGroupSshCertificatesResponse> => {
    const group = await ownedTopLevelGroup(deps.prisma, actorOf(req.actor), req.group);
    const p = paging(req.page);
    const where = { namespaceId: group.id };
    const [total, rows] = await Promise.all([
      deps.prisma.groupSshCertificate.count({ where }),
      deps.prisma.groupSshCertificate.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take }),
    ]);
    return { certificates: rows.map(toProto), pageInfo: pageInfo(total, p) };
  };

export const createGroupSshCertificate =
  (deps: IdentityDeps) =>
  async (req: CreateGroupSshCertificateRequest__Output): Promise<CertificateMsg> => {
    const actor = actorOf(req.actor);
    return deps.prisma.$transaction(async (tx) => {
      const group = await ownedTopLevelGroup(tx, actor, req.group);
      const parsed = parseSshPublicKey(req.key);
      // A key error rather than a fingerprint one: the caller knows nothing of fingerprints.
      if (!parsed) throw invalid("Invalid key");
      if (!req.title.trim()) throw invalid("Title can't be blank");
      if (req.title.length > 255) throw invalid("Title is too long (maximum is 255 characters)");
      const fingerprint = parsed.fingerprintSha256.slice("SHA256:".length);
      if (await tx.groupSshCertificate.findFirst({ where: { namespaceId: group.id, fingerprint } })) {
        throw invalid("Fingerprint must be unique. This CA has already been configured for this namespace.");
      }
      return toProto(await tx.groupSshCertificate.create({ data: { namespaceId: group.id, title: req.title, key: req.key.trim(), fingerprint } }));
    });
  };

export const deleteGroupSshCertificate =
  (deps: IdentityDeps) =>
  async (req: DeleteGroupSshCertificateRequest__Output): Promise<Record<string, never>> => {
    const group = await ownedTopLevelGroup(deps.prisma, actorOf(req.actor), req.group);
    const { count } = await deps.prisma.groupSshCertificate.deleteMany({ where: { id: Number(req.certificateId), namespaceId: group.id } });
    if (!count) throw notFound("SSH Certificate");
    return {};
  };
