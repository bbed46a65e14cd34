// Repository statistics (GitLab's Projects::UpdateStatisticsService for repository_size,
// commit_count and wiki_size): after every ref change or wiki write of a project, repo-service
// measures the repository and publishes the figures on `quarry.repo.statistics`; identity-service
// keeps them in project_statistics. Measuring after the event (not in the write) keeps writes fast,
// as GitLab's asynchronous worker does.
import { enqueueEvent, Subjects, type EventBus, type PushEvent, type RepositoryStatisticsEvent, type Subscription, type WikiPageEvent } from "@quarry/bus";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository } from "../git/git.ts";
import { wikiDir } from "../wiki/wiki.ts";

/** The durable consumer of repo-service's own push and wiki events (replicas share it). */
export const STATISTICS_DURABLE = "repo-service-statistics";

/** A file's size; 0 when it vanished meanwhile (git may repack while we measure). */
async function fileSize(file: string): Promise<number> {
  try {
    return (await lstat(file)).size;
  } catch {
    return 0;
  }
}

/** Bytes of the files under `dir` (GitLab reports the repository's size on disk); 0 when it is missing. */
export async function directorySize(dir: string): Promise<number> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  let total = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(full);
    else if (entry.isFile()) total += await fileSize(full);
  }
  return total;
}

/** Commits reachable from HEAD, the default branch (GitLab's Repository#commit_count); 0 when it has none. */
export async function headCommitCount(gitDir: string): Promise<number> {
  const { stdout, exitCode } = await git(["rev-list", "--count", "HEAD"], { gitDir, okExitCodes: [128] });
  return exitCode === 0 ? Number(stdout.trim()) || 0 : 0;
}

/** Measures a project's repository and wiki; null when repo-service keeps no repository for it. */
export async function measureProject(deps: RepoDeps, projectId: number): Promise<Omit<RepositoryStatisticsEvent, "event_id"> | null> {
  const repository = await deps.prisma.repository.findUnique({ where: { projectId } });
  if (!repository) return null;
  const dir = deps.storages.resolve(repository.diskPath);
  const measuredAt = new Date().toISOString();
  const exists = await isRepository(dir);
  return {
    project_id: projectId,
    measured_at: measuredAt,
    repository_size: exists ? await directorySize(dir) : 0,
    commit_count: exists ? await headCommitCount(dir) : 0,
    wiki_size: await directorySize(wikiDir(deps, repository.diskPath).dir),
  };
}

/** Measures the project and publishes the figures through the outbox. */
export async function publishRepositoryStatistics(deps: RepoDeps, projectId: number): Promise<void> {
  const figures = await measureProject(deps, projectId);
  if (!figures) return;
  await deps.prisma.$transaction((tx) => enqueueEvent(tx, Subjects.repositoryStatistics, figures as unknown as Record<string, unknown>));
  deps.outbox.kick();
}

export async function subscribeToRepositoryChanges(deps: RepoDeps, bus: EventBus): Promise<Subscription[]> {
  const measure = (msg: { data: { project_id: number } }) => publishRepositoryStatistics(deps, Number(msg.data.project_id));
  return Promise.all([
    bus.subscribe<PushEvent>(Subjects.push, measure, { durable: `${STATISTICS_DURABLE}-push` }),
    bus.subscribe<PushEvent>(Subjects.tagPush, measure, { durable: `${STATISTICS_DURABLE}-tag-push` }),
    bus.subscribe<WikiPageEvent>(Subjects.wikiPage, measure, { durable: `${STATISTICS_DURABLE}-wiki` }),
  ]);
}
