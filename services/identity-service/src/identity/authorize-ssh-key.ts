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
        actor: { userId: key.user.id, isAdmin: key.user.isAdmin, system: "" },
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
