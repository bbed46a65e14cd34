import { getGroupRunnersTokens, resetGroupRunnersToken } from "./ci/group-runners-tokens.ts";
import type { EventBus } from "@quarry/bus";
import { clientStream, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { ObjectStore } from "@quarry/object-store";
import { ciV1, type CiServiceDefinition } from "@quarry/proto";
import { addJobTokenGroupLink } from "./ci/add-job-token-group-link.ts";
import { addJobTokenProjectLink } from "./ci/add-job-token-project-link.ts";
import { appendTrace } from "./ci/append-trace.ts";
import { cancelJob } from "./ci/cancel-job.ts";
import { cancelPipeline } from "./ci/cancel-pipeline.ts";
import { deleteJobArtifacts } from "./ci/delete-job-artifacts.ts";
import { deleteProjectArtifacts } from "./ci/delete-project-artifacts.ts";
import { eraseJob } from "./ci/erase-job.ts";
import { keepArtifacts } from "./ci/keep-artifacts.ts";
import { playJob } from "./ci/play-job.ts";
import { retryJob } from "./ci/retry-job.ts";
import { retryPipeline } from "./ci/retry-pipeline.ts";
import { authenticateJobToken } from "./ci/authenticate-job-token.ts";
import { checkJobTokenAccess } from "./ci/check-job-token-access.ts";
import { createPipelineRpc } from "./ci/create-pipeline.ts";
import { registerRunner } from "./ci/register-runner.ts";
import { requestJob } from "./ci/request-job.ts";
import { updateJob } from "./ci/update-job.ts";
import { downloadArtifact } from "./ci/download-artifact.ts";
import { uploadArtifact } from "./ci/upload-artifact.ts";
import { createRunner } from "./ci/create-runner.ts";
import { deletePipeline } from "./ci/delete-pipeline.ts";
import { deleteRunnerByToken } from "./ci/delete-runner-by-token.ts";
import { getDeployment } from "./ci/get-deployment.ts";
import { getEnvironment } from "./ci/get-environment.ts";
import { getJob } from "./ci/get-job.ts";
import { listDeployments } from "./ci/list-deployments.ts";
import { listEnvironments } from "./ci/list-environments.ts";
import { getJobTrace } from "./ci/get-job-trace.ts";
import { getJobTokenScope } from "./ci/get-job-token-scope.ts";
import { getPipeline } from "./ci/get-pipeline.ts";
import { getStorageInfo } from "./ci/get-storage-info.ts";
import { latestPipelines } from "./ci/latest-pipelines.ts";
import { listJobs } from "./ci/list-jobs.ts";
import { listJobTokenGroupLinks } from "./ci/list-job-token-group-links.ts";
import { listJobTokenProjectLinks } from "./ci/list-job-token-project-links.ts";
import { listPipelines } from "./ci/list-pipelines.ts";
import { removeJobTokenGroupLink } from "./ci/remove-job-token-group-link.ts";
import { removeJobTokenProjectLink } from "./ci/remove-job-token-project-link.ts";
import { setJobTokenScope } from "./ci/set-job-token-scope.ts";
import { verifyRunner } from "./ci/verify-runner.ts";
import { ALL_CI_ROLES, artifactHandlersOnly, rolePlan, type CiRole } from "./roles.ts";
import { startService } from "@quarry/service";
import { projectDirectory, repositoryReader } from "./clients.ts";
import { DEFAULT_CI_SETTINGS, type CiDeps, type CiSettings } from "./deps.ts";
import { subscribeToMergeRequests } from "./pipelines/merge-request-consumer.ts";
import { subscribeToPushes } from "./pipelines/push-consumer.ts";
import { JobQueueSignal } from "./pipelines/queue-signal.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { storageKind } from "./storage.ts";
import { registerCiMetrics } from "./metrics.ts";
import { artifactCleanup } from "./workers/artifact-cleanup.ts";
import { startWorkers } from "./workers/periodic.ts";
import { stuckJobWatchdog } from "./workers/watchdog.ts";
import { createSecretBox } from "@quarry/secret-box";
import { getProjectRunnersTokens, resetProjectRunnersToken } from "./ci/project-runners-tokens.ts";
import { listGroupRunners } from "./ci/list-group-runners.ts";
import { listProjectRunners } from "./ci/list-project-runners.ts";

export function ciHandlers(deps: CiDeps): AsyncHandlers<CiServiceDefinition> {
  return {
    GetStorageInfo: getStorageInfo(deps),
    GetJobTokenScope: getJobTokenScope(deps),
    SetJobTokenScope: setJobTokenScope(deps),
    ListJobTokenProjectLinks: listJobTokenProjectLinks(deps),
    AddJobTokenProjectLink: addJobTokenProjectLink(deps),
    RemoveJobTokenProjectLink: removeJobTokenProjectLink(deps),
    ListJobTokenGroupLinks: listJobTokenGroupLinks(deps),
    AddJobTokenGroupLink: addJobTokenGroupLink(deps),
    RemoveJobTokenGroupLink: removeJobTokenGroupLink(deps),
    CreateRunner: createRunner(deps),
    VerifyRunner: verifyRunner(deps),
    DeleteRunnerByToken: deleteRunnerByToken(deps),
    ListPipelines: listPipelines(deps),
    GetPipeline: getPipeline(deps),
    DeletePipeline: deletePipeline(deps),
    LatestPipelines: latestPipelines(deps),
    ListJobs: listJobs(deps),
    GetJob: getJob(deps),
    GetJobTrace: getJobTrace(deps),
    CancelPipeline: cancelPipeline(deps),
    RetryPipeline: retryPipeline(deps),
    CancelJob: cancelJob(deps),
    RetryJob: retryJob(deps),
    PlayJob: playJob(deps),
    EraseJob: eraseJob(deps),
    KeepArtifacts: keepArtifacts(deps),
    DeleteJobArtifacts: deleteJobArtifacts(deps),
    DeleteProjectArtifacts: deleteProjectArtifacts(deps),
    CreatePipeline: createPipelineRpc(deps),
    RegisterRunner: registerRunner(deps),
    RequestJob: requestJob(deps),
    UpdateJob: updateJob(deps),
    AppendTrace: appendTrace(deps),
    AuthenticateJobToken: authenticateJobToken(deps),
    CheckJobTokenAccess: checkJobTokenAccess(deps),
    DownloadArtifact: downloadArtifact(deps),
    UploadArtifact: clientStream(uploadArtifact(deps)),
    ListEnvironments: listEnvironments(deps),
    GetEnvironment: getEnvironment(deps),
    ListDeployments: listDeployments(deps),
    GetDeployment: getDeployment(deps),
    GetProjectRunnersTokens: getProjectRunnersTokens(deps),
    ResetProjectRunnersToken: resetProjectRunnersToken(deps),
    ListProjectRunners: listProjectRunners(deps),
    ListGroupRunners: listGroupRunners(deps),
    GetGroupRunnersTokens: getGroupRunnersTokens(deps),
    ResetGroupRunnersToken: resetGroupRunnersToken(deps),
  };
}

export interface CiServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** Push and merge request events create pipelines; pipeline, job and deployment status changes are published on it. */
  bus: EventBus;
  repoServiceAddress: string;
  identityServiceAddress: string;
  /** Deadline of calls to other services. */
  deadlineMs?: number;
  settings?: Partial<CiSettings>;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** Artifact store; the caller has run `ensureBucket()`. */
  objectStore: ObjectStore;
  /** Secret (≥ 32 characters) that projects' runner registration tokens are sealed with. */
  encryptionKey: string;
  /** What this process does (roles.ts); default api + worker, as the embedded mode runs it. */
  roles?: readonly CiRole[];
}

export interface RunningCiService {
  address: string;
  roles: readonly CiRole[];
  deps: CiDeps;
  stop(): Promise<void>;
}

/** Starts ci-service on the shared skeleton (packages/service) and serves CiService on `grpcAddress`. */
export async function startCiService(o: CiServiceOptions): Promise<RunningCiService> {
  const kind = storageKind(o.objectStore);
  const roles = o.roles?.length ? o.roles : ALL_CI_ROLES;
  const plan = rolePlan(roles);
  const service = await startService({
    name: "ci-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma, onStop }): CiDeps {
      const deadlineMs = Math.max(o.deadlineMs ?? 10_000, 30_000);
      const repositories = repositoryReader(o.repoServiceAddress, deadlineMs);
      onStop(() => repositories.close());
      const projects = projectDirectory(o.identityServiceAddress, deadlineMs);
      onStop(() => projects.close());
      return {
        prisma,
        objectStore: o.objectStore,
        storageKind: kind,
        repositories,
        projects,
        queue: new JobQueueSignal(),
        settings: { ...DEFAULT_CI_SETTINGS, ...o.settings },
        events: o.bus,
        log: o.log,
        secrets: createSecretBox(o.encryptionKey, "project_runners_tokens"),
      };
    },
    handlers(server, deps) {
      // A worker-only process serves health alone: CiService calls to it answer UNIMPLEMENTED (grpc-js).
      if (plan.rpcs === "none") return;
      const handlers = ciHandlers(deps);
      server.addService("quarry.ci.v1.CiService", ciV1.CiService.service, plan.rpcs === "all" ? handlers : artifactHandlersOnly(handlers));
    },
    subscribe: async (deps) => (plan.background ? [...(await subscribeToPushes(deps, o.bus)), await subscribeToMergeRequests(deps, o.bus)] : []),
    workers: (deps) =>
      plan.background ? [startWorkers([stuckJobWatchdog(deps), artifactCleanup(deps)], deps.settings.workerIntervalSeconds * 1000, o.log)] : [],
    logFields: () => ({ storage: kind, bucket: o.objectStore.bucket, roles: roles.join(",") }),
    gauges: (metrics, _deps, prisma) => registerCiMetrics(metrics, prisma),
  });
  return { address: service.address, roles, deps: service.deps, stop: service.stop };
}
