// Removes expired artifacts (GitLab's Ci::JobArtifacts::DestroyAllExpiredService): their objects,
// then their rows. Traces never expire.
import type { CiDeps } from "../deps.ts";
import { publishArtifactsStatistics } from "../events/artifacts-statistics.ts";

/** Artifacts removed per transaction. */
export const CLEANUP_BATCH = 100;

/**
 * The artifact cleanup of one replica. Each batch locks its rows with SKIP LOCKED, so replicas
 * running at once split the work instead of deleting the same artifacts. Objects go first, under
 * the row locks: a failed deletion leaves the rows for the next run (a missing object is no error).
 */
export function artifactCleanup(deps: CiDeps, batchSize = CLEANUP_BATCH) {
  async function removeBatch(now: Date): Promise<number[]> {
    const removed = await deps.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<{ id: number; object_key: string; project_id: number }[]>`
          SELECT id, object_key, project_id FROM job_artifacts
          WHERE expire_at <= ${now} AND file_type <> 'trace'
          ORDER BY expire_at, id LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return { ids: [], projectIds: [] };
        await deps.objectStore.deleteMany(rows.map((r) => r.object_key));
        const ids = rows.map((r) => r.id);
        await tx.jobArtifact.deleteMany({ where: { id: { in: ids } } });
        return { ids, projectIds: rows.map((r) => r.project_id) };
      },
      { timeout: 120_000 },
    );
    // The projects' artifacts totals shrank (GitLab refreshes job_artifacts_size the same way).
    await publishArtifactsStatistics(deps, removed.projectIds);
    return removed.ids;
  }

  return {
    name: "artifact cleanup",
    /** Removes everything expired now; returns the ids of the artifacts this run removed. */
    async runOnce(): Promise<number[]> {
      const now = new Date();
      const removed: number[] = [];
      for (;;) {
        const ids = await removeBatch(now);
        removed.push(...ids);
        if (ids.length < batchSize) return removed;
      }
    },
  };
}
