// Wire forms of pipeline and job rows. The gateway's entities turn these into GitLab's JSON.
import type { Job as JobMessage } from "@quarry/proto/types/ci/v1/Job";
import type { JobArtifactFile } from "@quarry/proto/types/ci/v1/JobArtifactFile";
import type { JobRunner } from "@quarry/proto/types/ci/v1/JobRunner";
import type { JobRunnerManager } from "@quarry/proto/types/ci/v1/JobRunnerManager";
import type { Pipeline as PipelineMessage } from "@quarry/proto/types/ci/v1/Pipeline";
import type { Job, JobArtifact, Pipeline, Runner, RunnerManager } from "../generated/prisma/client.ts";
import { sourceRef } from "./merge-request.ts";
import { isPlayable, isRetryable, type JobStatus, type JobWhen } from "../processing/index.ts";

/** A runner counts as online when it made contact within GitLab's ONLINE_CONTACT_TIMEOUT (2 hours). */
const ONLINE_MS = 2 * 60 * 60 * 1000;

const iso = (d: Date | null | undefined): string => d?.toISOString() ?? "";
const seconds = (from: Date | null, to: Date | null): number | undefined => (from ? ((to ?? new Date()).getTime() - from.getTime()) / 1000 : undefined);

/** Mean coverage of the jobs that report one (GitLab's Pipeline#coverage). */
export function pipelineCoverage(jobs: readonly { coverage: number | null; retried: boolean }[]): number | undefined {
  const values = jobs.filter((j) => !j.retried && j.coverage !== null).map((j) => j.coverage!);
  return values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : undefined;
}

export function toPipelineMessage(p: Pipeline, coverage?: number): PipelineMessage {
  return {
    id: p.id,
    iid: p.iid,
    projectId: p.projectId,
    ref: p.ref,
    tag: p.tag,
    sha: p.sha,
    beforeSha: p.beforeSha,
    source: p.source,
    status: p.status,
    yamlErrors: p.yamlErrors ?? "",
    userId: p.userId,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    startedAt: iso(p.startedAt),
    finishedAt: iso(p.finishedAt),
    committedAt: iso(p.committedAt),
    duration: p.startedAt ? Math.round(seconds(p.startedAt, p.finishedAt)!) : undefined,
    queuedDuration: p.startedAt ? seconds(p.createdAt, p.startedAt) : undefined,
    coverage,
    warnings: p.warnings,
    parentPipelineId: p.parentPipelineId ?? 0,
    projectPath: p.projectPath,
    name: p.name ?? "",
    mergeRequestIid: p.mergeRequestIid ?? 0,
    sourceRef: sourceRef(p),
  };
}

function runnerStatus(contactedAt: Date | null, now: number): "online" | "offline" | "never_contacted" {
  if (!contactedAt) return "never_contacted";
  return now - contactedAt.getTime() < ONLINE_MS ? "online" : "offline";
}

export function toJobRunner(r: Runner, now = Date.now()): JobRunner {
  const status = runnerStatus(r.contactedAt, now);
  return {
    id: r.id,
    description: r.description,
    ipAddress: "",
    active: !r.paused,
    paused: r.paused,
    isShared: r.runnerType === "instance_type",
    runnerType: r.runnerType,
    name: "",
    online: status === "online",
    status,
  };
}

export function toJobRunnerManager(m: RunnerManager, now = Date.now()): JobRunnerManager {
  return {
    id: m.id,
    systemId: m.systemId,
    version: m.version,
    revision: m.revision,
    platform: m.platform,
    architecture: m.architecture,
    createdAt: iso(m.createdAt),
    contactedAt: iso(m.contactedAt),
    ipAddress: m.ipAddress ?? "",
    status: runnerStatus(m.contactedAt, now) === "online" ? "online" : "offline",
  };
}

export function toArtifactFile(a: JobArtifact): JobArtifactFile {
  return { fileType: a.fileType, size: Number(a.size), filename: a.filename, fileFormat: a.fileFormat };
}

/** A job row with what its message shows. */
export interface JobWithRelations extends Job {
  pipeline: Pipeline;
  artifacts: JobArtifact[];
}

/** Extra rows a job message needs, loaded in bulk by the caller. */
export interface JobMessageContext {
  runners: ReadonlyMap<number, Runner>;
  managers: ReadonlyMap<number, RunnerManager>;
  downstream: ReadonlyMap<number, Pipeline>;
  /** Projects whose job token scope limit is off (the default is on). */
  scopeDisabled: ReadonlySet<number>;
}

/** GitLab lists a job's files archive, metadata, trace, then the reports. */
const ARTIFACT_ORDER = ["archive", "metadata", "trace"];

export function toJobMessage(j: JobWithRelations, ctx: JobMessageContext): JobMessage {
  const archive = j.artifacts.find((a) => a.fileType === "archive");
  const expiring = j.artifacts.filter((a) => a.fileType !== "trace").map((a) => a.expireAt);
  const expireAt = expiring.length && expiring.every((d) => d) ? expiring[0] : null;
  const runner = j.runnerId ? ctx.runners.get(j.runnerId) : undefined;
  const manager = j.runnerManagerId ? ctx.managers.get(j.runnerManagerId) : undefined;
  const downstream = j.downstreamPipelineId ? ctx.downstream.get(j.downstreamPipelineId) : undefined;
  const processable = { status: j.status as JobStatus, when: j.when as JobWhen, retried: j.retried };
  const sorted = [...j.artifacts].sort(
    (a, b) => (ARTIFACT_ORDER.indexOf(a.fileType) + 1 || 99) - (ARTIFACT_ORDER.indexOf(b.fileType) + 1 || 99) || a.id - b.id,
  );
  return {
    id: j.id,
    name: j.name,
    stage: j.stage,
    status: j.status,
    failureReason: j.failureReason ?? "",
    ref: j.pipeline.ref,
    tag: j.pipeline.tag,
    coverage: j.coverage ?? undefined,
    allowFailure: j.allowFailure,
    createdAt: iso(j.createdAt),
    startedAt: iso(j.startedAt),
    finishedAt: iso(j.finishedAt),
    erasedAt: iso(j.erasedAt),
    duration: seconds(j.startedAt, j.finishedAt),
    queuedDuration: j.queuedAt ? seconds(j.queuedAt, j.startedAt) : undefined,
    artifactsExpireAt: archive || expiring.length ? iso(expireAt) : "",
    artifacts: sorted.map(toArtifactFile),
    tagList: j.tagList,
    userId: j.userId,
    pipeline: toPipelineMessage(j.pipeline),
    runner: runner ? toJobRunner(runner) : undefined,
    runnerManager: manager ? toJobRunnerManager(manager) : undefined,
    type: j.type,
    downstreamPipeline: downstream ? toPipelineMessage(downstream) : undefined,
    retried: j.retried,
    when: j.when,
    projectId: j.projectId,
    ciJobTokenScopeEnabled: !ctx.scopeDisabled.has(j.projectId),
    commitTitle: j.pipeline.commitTitle,
    commitMessage: j.pipeline.commitMessage,
    commitAuthorName: j.pipeline.commitAuthorName,
    commitAuthorEmail: j.pipeline.commitAuthorEmail,
    playable: isPlayable(processable),
    retryable: isRetryable(processable),
    archived: false,
    source: j.pipeline.source,
  };
}

/** Loads the runners, managers, downstream pipelines and scope settings `jobs` refer to. */
export async function loadJobMessageContext(prisma: import("../deps.ts").PrismaClient, jobs: readonly Job[]): Promise<JobMessageContext> {
  const ids = (pick: (j: Job) => number | null) => [...new Set(jobs.map(pick).filter((v): v is number => v !== null))];
  const [runners, managers, downstream, settings] = await Promise.all([
    prisma.runner.findMany({ where: { id: { in: ids((j) => j.runnerId) } } }),
    prisma.runnerManager.findMany({ where: { id: { in: ids((j) => j.runnerManagerId) } } }),
    prisma.pipeline.findMany({ where: { id: { in: ids((j) => j.downstreamPipelineId) } } }),
    prisma.ciSetting.findMany({ where: { projectId: { in: ids((j) => j.projectId) }, jobTokenScopeEnabled: false } }),
  ]);
  return {
    runners: new Map(runners.map((r) => [r.id, r])),
    managers: new Map(managers.map((m) => [m.id, m])),
    downstream: new Map(downstream.map((p) => [p.id, p])),
    scopeDisabled: new Set(settings.map((s) => s.projectId)),
  };
}

/** Prisma `include` for JobWithRelations. */
export const JOB_INCLUDE = { pipeline: true, artifacts: true } as const;
