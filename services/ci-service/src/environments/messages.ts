// Wire forms of environments and deployments; the gateway's entities make GitLab's JSON of them.
import type { Deployment as DeploymentMessage } from "@quarry/proto/types/ci/v1/Deployment";
import type { Environment as EnvironmentMessage } from "@quarry/proto/types/ci/v1/Environment";
import { jobMessages } from "../ci/pipelines.ts";
import type { PrismaClient } from "../deps.ts";
import type { Deployment, Environment } from "../generated/prisma/client.ts";
import { JOB_INCLUDE } from "../pipelines/messages.ts";

const iso = (d: Date | null | undefined): string => d?.toISOString() ?? "";

export function toEnvironmentMessage(e: Environment, lastDeployment?: DeploymentMessage): EnvironmentMessage {
  return {
    id: e.id,
    projectId: e.projectId,
    name: e.name,
    slug: e.slug,
    externalUrl: e.externalUrl ?? "",
    state: e.state,
    tier: e.tier,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    lastDeployment,
  };
}

/** Deployment messages with their environments and deployable jobs, loaded in bulk for the page. */
export async function deploymentMessages(db: PrismaClient, deployments: readonly (Deployment & { environment: Environment })[]): Promise<DeploymentMessage[]> {
  const jobs = deployments.length ? await db.job.findMany({ where: { id: { in: deployments.map((d) => d.jobId) } }, include: JOB_INCLUDE }) : [];
  const messages = await jobMessages(db, jobs);
  const byId = new Map(messages.map((m) => [Number(m.id), m]));
  return deployments.map((d) => ({
    id: d.id,
    iid: d.iid,
    projectId: d.projectId,
    ref: d.ref,
    tag: d.tag,
    sha: d.sha,
    status: d.status,
    userId: d.userId,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    finishedAt: iso(d.finishedAt),
    environment: toEnvironmentMessage(d.environment),
    deployable: byId.get(d.jobId),
  }));
}
