// Git over SSH (GitLab's /internal/allowed for a key): who the key is, and whether it may fetch
// or push. Users' keys get exactly Authorize's answer for their user; deploy keys are GitLab's
// Gitlab::DeployKeyAccess (read where enabled, push only with can_push).
import { AccessLevel } from "@quarry/gitlab";
import { forbidden, notFound, paramError, unauthenticated } from "@quarry/grpc";
import type { AuthorizeSshKeyRequest__Output } from "@quarry/proto/types/identity/v1/AuthorizeSshKeyRequest";
import type { AuthorizeSshKeyResponse } from "@quarry/proto/types/identity/v1/AuthorizeSshKeyResponse";
import type { IdentityDeps } from "../deps.ts";
import { authorize } from "./authorize.ts";
import { projectToProto, userToProto } from "./convert.ts";
import { findProject } from "./lookup.ts";
import { userInclude } from "./users-common.ts";

const ACTIONS = new Set(["download_code", "push_code"]);
// last_used_at is refreshed at most this often, as for tokens.
const LAST_USED_GRANULARITY_MS = 10 * 60 * 1000;

export const authorizeSshKey =
  (deps: IdentityDeps) =>
  async (req: AuthorizeSshKeyRequest__Output): Promise<AuthorizeSshKeyResponse> => {
    if (req.caFingerprint) return authorizeCertificate(deps, req);
    const fingerprint = req.fingerprint.replace(/^SHA256:/, "").replace(/=+$/, "");
    const key = fingerprint
      ? await deps.prisma.key.findUnique({ where: { fingerprintSha256: fingerprint }, include: { user: { include: userInclude } } })
      : null;
    if (!key || (key.expiresAt && key.expiresAt.getTime() <= Date.now())) throw unauthenticated();
    if (key.type === "Key" && (key.user?.state !== "active" || key.usageType === "signing")) throw unauthenticated();
    if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await deps.prisma.key.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } });
    }
    const creator = !key.user && key.createdById ? await deps.prisma.user.findUnique({ where: { id: key.createdById }, include: userInclude }) : null;
    const owner = key.user ?? creator;
    const base = { keyId: key.id, deployKey: key.type === "DeployKey", ...(owner ? { user: userToProto(owner) } : {}) };
    if (!req.project) return base;
    if (!ACTIONS.has(req.action)) throw paramError("action does not have a valid value");

    if (key.type === "Key" && key.user) {
      const res = await authorize(deps)({
        actor: { userId: key.user.id, isAdmin: key.user.isAdmin, system: "", ipAddress: "" },
        action: req.action,
        project: req.project,
        group: "",
      });
      return { ...base, project: res.project, accessLevel: res.accessLevel };
    }
    const project = await findProject(deps.prisma, req.project);
    const link = project ? await deps.prisma.deployKeyProject.findFirst({ where: { projectId: project.id, deployKeyId: key.id } }) : null;
    if (!project || !link) throw notFound("Project");
    if (req.action === "push_code" && !link.canPush) throw forbidden();
    const accessLevel = link.canPush ? AccessLevel.DEVELOPER : AccessLevel.NO_ACCESS;
    return { ...base, project: projectToProto(project, { projectLevel: accessLevel, groupLevel: 0 }), accessLevel };
  };

/**
 * An OpenSSH user certificate (GitLab's group SSH certificates, /internal/authorized_certs): the
 * caller checked its signature, validity and type; here its CA must be a top-level group's and its
 * key id must name an active user (username, or primary e-mail). The user then reaches only that
 * group's projects, with Authorize's rules.
 */
async function authorizeCertificate(deps: IdentityDeps, req: AuthorizeSshKeyRequest__Output): Promise<AuthorizeSshKeyResponse> {
  const fingerprint = req.caFingerprint.replace(/^SHA256:/, "").replace(/=+$/, "");
  const certificates = await deps.prisma.groupSshCertificate.findMany({ where: { fingerprint }, orderBy: { id: "asc" } });
  const identifier = req.userIdentifier.trim().toLowerCase();
  const user =
    certificates.length && identifier
      ? await deps.prisma.user.findFirst({ where: { OR: [{ usernameLower: identifier }, { email: identifier }] }, include: userInclude })
      : null;
  if (user?.state !== "active") throw unauthenticated();
  const groupIds = certificates.map((c) => c.namespaceId);
  const base = { keyId: 0, deployKey: false, user: userToProto(user), certificateGroupId: groupIds[0]! };
  if (!req.project) return base;
  if (!ACTIONS.has(req.action)) throw paramError("action does not have a valid value");
  const project = await findProject(deps.prisma, req.project);
  const topLevel = project?.namespace.kind === "group" ? project.namespace.traversalIds[0] : undefined;
  if (!project || topLevel === undefined || !groupIds.includes(topLevel)) throw notFound("Project");
  const res = await authorize(deps)({
    actor: { userId: user.id, isAdmin: user.isAdmin, system: "", ipAddress: "" },
    action: req.action,
    project: String(project.id),
    group: "",
  });
  return { ...base, certificateGroupId: topLevel, project: res.project, accessLevel: res.accessLevel };
}
