// Removes expired artifacts (GitLab's Ci::JobArtifacts::DestroyAllExpiredService): their objects,
// then their rows. Traces never expire.
import type { CiDeps } from "../deps.ts";

/** Artifacts removed per transaction. */
export const CLEANUP_BATCH = 100;

/**
 * The artifact cleanup of one replica. Each batch locks its rows with SKIP LOCKED, so replicas
 * running at once split the work instead of deleting the same artifacts. Objects go first, under
 * the row locks: a failed deletion leaves the rows for the next run (a missing object is no error).
 */
export function artifactCleanup(deps: CiDeps, batchSize = CLEANUP_BATCH) {
  async function removeBatch(now: Date): Promise<number[]> {
    return deps.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<{ id: number; object_key: string }[]>`
          SELECT id, object_key FROM job_artifacts
          WHERE expire_at <= ${now} AND file_type <> 'trace'
          ORDER BY expire_at, id LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return [];
        await deps.objectStore.deleteMany(rows.map((r) => r.object_key));
        const ids = rows.map((r) => r.id);
        await tx.jobArtifact.deleteMany({ where: { id: { in: ids } } });
        return ids;
      },
      { timeout: 120_000 },
    );
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
