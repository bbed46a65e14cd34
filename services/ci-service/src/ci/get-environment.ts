import { isPositiveInt32 } from "@quarry/gitlab";
import type { Environment } from "@quarry/proto/types/ci/v1/Environment";
import type { EnvironmentRequest__Output } from "@quarry/proto/types/ci/v1/EnvironmentRequest";
import type { CiDeps } from "../deps.ts";
import { deploymentMessages, toEnvironmentMessage } from "../environments/messages.ts";
import { recordNotFound } from "./pipelines.ts";

/** One environment of the project with its last successful deployment (GitLab's Environment#last_deployment); 404 otherwise. */
export const getEnvironment =
  (deps: CiDeps) =>
  async (req: EnvironmentRequest__Output): Promise<Environment> => {
    const id = Number(req.environmentId);
    const environment = isPositiveInt32(id) ? await deps.prisma.environment.findFirst({ where: { id, projectId: Number(req.projectId) } }) : null;
    if (!environment) throw recordNotFound();
    const last = await deps.prisma.deployment.findFirst({
      where: { environmentId: environment.id, status: "success" },
      orderBy: { id: "desc" },
      include: { environment: true },
    });
    const [lastDeployment] = last ? await deploymentMessages(deps.prisma, [last]) : [];
    return toEnvironmentMessage(environment, lastDeployment);
  };
