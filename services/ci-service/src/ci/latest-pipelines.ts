import type { LatestPipelinesRequest__Output } from "@quarry/proto/types/ci/v1/LatestPipelinesRequest";
import type { LatestPipelinesResponse } from "@quarry/proto/types/ci/v1/LatestPipelinesResponse";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";
import { pipelineMessages } from "./pipelines.ts";

/** Enough for the commits of one page; GitLab pages commits by at most 100. */
const MAX_SHAS = 100;

/**
 * The newest pipeline (highest id, any source) of each commit, optionally on one ref: GitLab's
 * `latest_pipeline_per_commit`, behind a commit's `status` and `last_pipeline`.
 */
export const latestPipelines =
  (deps: CiDeps) =>
  async (req: LatestPipelinesRequest__Output): Promise<LatestPipelinesResponse> => {
    const projectId = validId(req.projectId, "id");
    const shas = [...new Set(req.shas)].slice(0, MAX_SHAS);
    if (!shas.length) return { pipelines: [] };
    const ref = req.ref || null;
    const newest = await deps.prisma.$queryRaw<{ id: number }[]>`
      SELECT DISTINCT ON (sha) id FROM pipelines
      WHERE project_id = ${projectId} AND sha = ANY(${shas}) AND (${ref}::text IS NULL OR ref = ${ref})
      ORDER BY sha, id DESC`;
    const rows = await deps.prisma.pipeline.findMany({ where: { id: { in: newest.map((r) => Number(r.id)) } }, orderBy: { id: "desc" } });
    return { pipelines: await pipelineMessages(deps.prisma, rows) };
  };
