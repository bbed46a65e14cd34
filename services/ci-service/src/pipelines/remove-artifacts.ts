// Deleting a job's artifacts on request (erase, DELETE .../artifacts). The rows go in the
// caller's transaction; the objects after it commits, so a failure leaves unreferenced objects
// behind, never rows that point at missing objects.
import { Prisma } from "../generated/prisma/client.ts";
import type { Tx } from "../deps.ts";

/**
 * Deletes a job's artifact rows and returns their object keys: every one, or only GitLab's
 * erasable ones (all but the trace).
 */
export async function deleteArtifactRows(tx: Tx, jobId: number, which: "all" | "erasable"): Promise<string[]> {
  const rows = await tx.$queryRaw<{ object_key: string }[]>`
    DELETE FROM job_artifacts
    WHERE job_id = ${jobId} ${which === "erasable" ? Prisma.sql`AND file_type <> 'trace'` : Prisma.empty}
    RETURNING object_key`;
  return rows.map((r) => r.object_key);
}
