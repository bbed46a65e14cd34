import { JOB_STATUSES } from "@quarry/gitlab";
import type { Job__Output as Job } from "@quarry/proto/types/ci/v1/Job";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor } from "../../http/auth.ts";
import { p, z } from "../../http/params.ts";
import { bridgeEntity, jobEntity } from "../../entities/job.ts";
import { pipelineBasic, type CiUrls } from "../../entities/pipeline.ts";
import type { Urls } from "../../entities/urls.ts";

/**
 * The job lists' `scope`: one status, `scope[]=…` repeated, or a hash of them, as Grape coerces it
 * (a single string is one value, never split at commas).
 */
export const scopeParam = z
  .union([z.string(), z.array(z.string()), z.record(z.string(), z.string())])
  .transform((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v : Object.values(v)))
  .pipe(z.array(p.enum(JOB_STATUSES)))
  .optional();

/** URLs of a project's CI pages, on its current path. */
export const ciUrls = (urls: Urls, project: Project): CiUrls => ({ ...urls, projectId: project.id, projectPath: project.pathWithNamespace });

/** The users of a page, in one GetUsers call; users that no longer exist are left out. */
export async function usersById(deps: GatewayDeps, req: Request, ids: readonly number[]): Promise<Map<number, User>> {
  const distinct = [...new Set(ids.filter((id) => id > 0))];
  if (!distinct.length) return new Map();
  const { users } = await deps.identity.GetUsers({ actor: actor(req), ids: distinct }, { requestId: req.requestId });
  return new Map(users.map((u) => [u.id, u]));
}

/** Jobs as GitLab shows them: builds as Job entities, trigger jobs as Bridge entities. */
export async function presentJobs(deps: GatewayDeps, req: Request, project: Project, jobs: readonly Job[], urls: Urls) {
  const users = await usersById(
    deps,
    req,
    jobs.map((j) => j.userId),
  );
  const u = ciUrls(urls, project);
  return jobs.map((j) => (j.type === "bridge" ? bridgeEntity(j, users, u) : jobEntity(j, users, u)));
}

/** A commit's newest pipeline as CommitDetail shows it (`last_pipeline`, whose status is the commit's), or null. */
export async function lastPipeline(deps: GatewayDeps, project: Project, sha: string, c: { urls: Urls; call: { requestId?: string } }) {
  const [pipeline] = (await deps.ci.LatestPipelines({ projectId: project.id, shas: [sha], ref: "" }, c.call)).pipelines;
  return pipeline ? pipelineBasic(pipeline, ciUrls(c.urls, project)) : null;
}
