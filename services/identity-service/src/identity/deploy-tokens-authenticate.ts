// Git over HTTP with a deploy token (Gitlab::Auth#deploy_token_check): the token must be active,
// the HTTP Basic username its username, and the project its project (a project token) or one of
// its group's projects, subgroups included (a group token). Anything else is UNAUTHENTICATED, which
// git HTTP answers with GitLab's 401; what the token's scopes allow is the gateway's business.
import { unauthenticated } from "@quarry/grpc";
import type { AuthenticateDeployTokenRequest__Output } from "@quarry/proto/types/identity/v1/AuthenticateDeployTokenRequest";
import type { AuthenticateDeployTokenResponse } from "@quarry/proto/types/identity/v1/AuthenticateDeployTokenResponse";
import type { IdentityDeps } from "../deps.ts";
import { projectToProto } from "./convert.ts";
import { deployTokenToProto, deployTokenUsername, isActive } from "./deploy-tokens.ts";
import { findProject } from "./lookup.ts";
import { tokenDigest } from "./passwords.ts";

export const authenticateDeployToken =
  (deps: IdentityDeps) =>
  async (req: AuthenticateDeployTokenRequest__Output): Promise<AuthenticateDeployTokenResponse> => {
    if (!req.token || !req.username || !req.project) throw unauthenticated();
    const token = await deps.prisma.deployToken.findUnique({ where: { tokenDigest: tokenDigest(req.token) }, include: { projects: true, groups: true } });
    if (!token || !isActive(token) || deployTokenUsername(token) !== req.username) throw unauthenticated();
    const project = await findProject(deps.prisma, req.project);
    if (!project) throw unauthenticated();
    const reaches =
      token.deployTokenType === "project"
        ? token.projects.some((l) => l.projectId === project.id)
        : token.groups.some((l) => project.namespace.kind === "group" && project.namespace.traversalIds.includes(l.groupId));
    if (!reaches) throw unauthenticated();
    return { deployToken: deployTokenToProto(token), project: projectToProto(project, { projectLevel: 0, groupLevel: 0 }) };
  };
