// Job artifact statistics (GitLab's project_statistics.job_artifacts_size, refreshed after
// artifact uploads and removals): ci-service totals a project's stored artifacts and publishes
// the total on `quarry.ci.artifacts_statistics`; identity-service keeps it. Published after the
// commit like ci-service's other events: a bus failure is logged and the next change corrects it.
import { randomUUID } from "node:crypto";
import { Subjects, type ArtifactsStatisticsEvent } from "@quarry/bus";
import type { CiDeps } from "../deps.ts";

/** Bytes of every stored artifact of the project (traces included, as in GitLab). */
export async function projectArtifactsSize(deps: Pick<CiDeps, "prisma">, projectId: number): Promise<number> {
  const sum = await deps.prisma.jobArtifact.aggregate({ where: { projectId }, _sum: { size: true } });
  return Number(sum._sum.size ?? 0n);
}

/** Publishes the artifacts total of each project; never throws (a failure is logged). */
export async function publishArtifactsStatistics(deps: Pick<CiDeps, "prisma" | "events" | "log">, projectIds: Iterable<number>): Promise<void> {
  for (const projectId of new Set(projectIds)) {
    try {
      const measuredAt = new Date().toISOString();
      const event: ArtifactsStatisticsEvent = {
        event_id: randomUUID(),
        project_id: projectId,
        measured_at: measuredAt,
        job_artifacts_size: await projectArtifactsSize(deps, projectId),
      };
      await deps.events.publish(Subjects.artifactsStatistics, event, { msgId: event.event_id });
    } catch (err) {
      deps.log.warn({ err, projectId }, "publishing the artifacts statistics failed");
    }
  }
}
