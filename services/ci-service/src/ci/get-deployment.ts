import { isPositiveInt32 } from "@quarry/gitlab";
import type { Deployment } from "@quarry/proto/types/ci/v1/Deployment";
import type { DeploymentRequest__Output } from "@quarry/proto/types/ci/v1/DeploymentRequest";
import type { CiDeps } from "../deps.ts";
import { deploymentMessages } from "../environments/messages.ts";
import { recordNotFound } from "./pipelines.ts";

/** One deployment of the project with its environment and job; 404 otherwise. */
export const getDeployment =
  (deps: CiDeps) =>
  async (req: DeploymentRequest__Output): Promise<Deployment> => {
    const id = Number(req.deploymentId);
    const deployment = isPositiveInt32(id)
      ? await deps.prisma.deployment.findFirst({ where: { id, projectId: Number(req.projectId) }, include: { environment: true } })
      : null;
    if (!deployment) throw recordNotFound();
    const [message] = await deploymentMessages(deps.prisma, [deployment]);
    return message!;
  };
