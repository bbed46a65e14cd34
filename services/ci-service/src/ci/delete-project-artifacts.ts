import type { DeleteArtifactsResponse } from "@quarry/proto/types/ci/v1/DeleteArtifactsResponse";
import type { ProjectRequest__Output } from "@quarry/proto/types/ci/v1/ProjectRequest";
import type { CiDeps } from "../deps.ts";

/**
 * DELETE /projects/:id/artifacts (GitLab's Ci::JobArtifacts::DeleteProjectArtifactsService):
 * every erasable artifact (all but traces) of the project expires now, and the cleanup worker
 * removes it. Locked artifacts stay: GitLab keeps a pipeline's artifacts locked until a newer
 * pipeline of its ref succeeds ("keep artifacts from most recent successful jobs"), so the latest
 * successful pipeline of each ref, anything newer, and their child pipelines keep theirs.
 */
export const deleteProjectArtifacts =
  (deps: CiDeps) =>
  async (req: ProjectRequest__Output): Promise<DeleteArtifactsResponse> => {
    const projectId = Number(req.projectId);
    const now = new Date();
    await deps.prisma.$executeRaw`
      WITH RECURSIVE tree AS (
        SELECT id, id AS root_id FROM pipelines WHERE project_id = ${projectId} AND parent_pipeline_id IS NULL
        UNION ALL
        SELECT child.id, tree.root_id FROM pipelines child JOIN tree ON child.parent_pipeline_id = tree.id
      ),
      unlocked AS (
        SELECT tree.id FROM tree JOIN pipelines root ON root.id = tree.root_id
        WHERE EXISTS (
          SELECT 1 FROM pipelines newer
          WHERE newer.project_id = root.project_id AND newer.ref = root.ref AND newer.tag = root.tag
            AND newer.parent_pipeline_id IS NULL AND newer.status = 'success' AND newer.id > root.id
        )
      )
      UPDATE job_artifacts a SET expire_at = ${now}
      FROM jobs j
      WHERE a.job_id = j.id AND j.pipeline_id IN (SELECT id FROM unlocked)
        AND a.project_id = ${projectId} AND a.file_type <> 'trace'
        AND (a.expire_at IS NULL OR a.expire_at > ${now})`;
    return {};
  };
