// Project storage statistics (GitLab's project_statistics). GitLab refreshes the row
// asynchronously (Projects::UpdateStatisticsService after pushes, artifact uploads, ...); here
// the owners of the bytes measure them and publish the figures, and this module keeps them.
import { Subjects, type ArtifactsStatisticsEvent, type EventBus, type RepositoryStatisticsEvent, type Subscription } from "@quarry/bus";
import type { ProjectStatistics as StatisticsMsg } from "@quarry/proto/types/identity/v1/ProjectStatistics";
import type { IdentityDeps, Tx } from "../deps.ts";
import type { ProjectStatistics } from "../generated/prisma/client.ts";

/** The durable consumer of repo-service's and ci-service's measurements (replicas share it). */
export const STATISTICS_DURABLE = "identity-service-statistics";

/** The sizes of a project's or a group's statistics from the ones Quarry keeps; storage_size is their sum, as GitLab's StorageSize; LFS, packages, snippets and registry are 0. */
export function storageFigures(kept: { repositorySize: number; wikiSize: number; jobArtifactsSize: number; uploadsSize: number }) {
  const { repositorySize, wikiSize, jobArtifactsSize, uploadsSize } = kept;
  return {
    storageSize: repositorySize + wikiSize + jobArtifactsSize + uploadsSize,
    repositorySize,
    wikiSize,
    lfsObjectsSize: 0,
    jobArtifactsSize,
    pipelineArtifactsSize: 0,
    packagesSize: 0,
    snippetsSize: 0,
    uploadsSize,
    containerRegistrySize: 0,
  };
}

/** The stored row as the proto message. */
export function statisticsToProto(s: ProjectStatistics | null | undefined): StatisticsMsg | null {
  if (!s) return null;
  const n = (v: bigint) => Number(v);
  return {
    commitCount: n(s.commitCount),
    ...storageFigures({ repositorySize: n(s.repositorySize), wikiSize: n(s.wikiSize), jobArtifactsSize: n(s.jobArtifactsSize), uploadsSize: n(s.uploadsSize) }),
  };
}

/** Moves uploads_size by `delta` bytes, inside the transaction that adds or removes the upload. */
export async function addUploadsSize(tx: Tx, projectId: number, delta: number): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO project_statistics (project_id, uploads_size, updated_at) VALUES (${projectId}, GREATEST(${delta}::bigint, 0), now())
    ON CONFLICT (project_id) DO UPDATE SET uploads_size = GREATEST(project_statistics.uploads_size + ${delta}::bigint, 0), updated_at = now()`;
}

/**
 * Stores a repository measurement unless a newer one is stored already (redeliveries and
 * reordering cannot roll the figures back). A project gone meanwhile is skipped.
 */
export async function recordRepositoryStatistics(deps: Pick<IdentityDeps, "prisma">, e: RepositoryStatisticsEvent): Promise<void> {
  const at = new Date(e.measured_at);
  await deps.prisma.$executeRaw`
    INSERT INTO project_statistics (project_id, repository_size, commit_count, wiki_size, repository_measured_at, updated_at)
    SELECT p.id, ${e.repository_size}::bigint, ${e.commit_count}::bigint, ${e.wiki_size}::bigint, ${at}, now() FROM projects p WHERE p.id = ${e.project_id}
    ON CONFLICT (project_id) DO UPDATE SET repository_size = EXCLUDED.repository_size, commit_count = EXCLUDED.commit_count,
      wiki_size = EXCLUDED.wiki_size, repository_measured_at = EXCLUDED.repository_measured_at, updated_at = now()
    WHERE project_statistics.repository_measured_at IS NULL OR project_statistics.repository_measured_at <= EXCLUDED.repository_measured_at`;
}

/** Stores a job artifacts total unless a newer one is stored already. */
export async function recordArtifactsStatistics(deps: Pick<IdentityDeps, "prisma">, e: ArtifactsStatisticsEvent): Promise<void> {
  const at = new Date(e.measured_at);
  await deps.prisma.$executeRaw`
    INSERT INTO project_statistics (project_id, job_artifacts_size, artifacts_measured_at, updated_at)
    SELECT p.id, ${e.job_artifacts_size}::bigint, ${at}, now() FROM projects p WHERE p.id = ${e.project_id}
    ON CONFLICT (project_id) DO UPDATE SET job_artifacts_size = EXCLUDED.job_artifacts_size,
      artifacts_measured_at = EXCLUDED.artifacts_measured_at, updated_at = now()
    WHERE project_statistics.artifacts_measured_at IS NULL OR project_statistics.artifacts_measured_at <= EXCLUDED.artifacts_measured_at`;
}

export async function subscribeToStatistics(deps: Pick<IdentityDeps, "prisma">, bus: EventBus): Promise<Subscription[]> {
  return [
    await bus.subscribe<RepositoryStatisticsEvent>(Subjects.repositoryStatistics, (msg) => recordRepositoryStatistics(deps, msg.data), {
      durable: `${STATISTICS_DURABLE}-repo`,
    }),
    await bus.subscribe<ArtifactsStatisticsEvent>(Subjects.artifactsStatistics, (msg) => recordArtifactsStatistics(deps, msg.data), {
      durable: `${STATISTICS_DURABLE}-ci`,
    }),
  ];
}
