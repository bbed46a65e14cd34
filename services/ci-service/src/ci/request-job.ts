import type { RequestJobRequest__Output } from "@quarry/proto/types/ci/v1/RequestJobRequest";
import type { RequestJobResponse } from "@quarry/proto/types/ci/v1/RequestJobResponse";
import type { CallContext } from "@quarry/grpc";
import type { CiDeps } from "../deps.ts";
import { buildPayload } from "../pipelines/payload.ts";
import { claimJob } from "../pipelines/queue.ts";
import { runnerForToken } from "./runners.ts";

/** Longest a request may wait for a job (GitLab Workhorse's long polling is up to 50 s). */
const MAX_WAIT_MS = 50_000;
/** Requests re-check the queue this often while waiting, for jobs queued by other replicas. */
const POLL_TICK_MS = 2_000;

/**
 * POST /jobs/request (GitLab's Ci::RegisterJobService behind Workhorse's long polling): records
 * the runner manager's contact, then hands over the oldest job it may run, waiting up to
 * `wait_ms` for one. No job → an empty response (HTTP 204).
 */
export const requestJob =
  (deps: CiDeps) =>
  async (req: RequestJobRequest__Output, ctx?: CallContext): Promise<RequestJobResponse> => {
    const runner = await runnerForToken(deps, req.token);
    const now = new Date();
    const systemId = req.systemId || "s_unknown";
    const info = {
      version: req.version,
      revision: req.revision,
      platform: req.platform,
      architecture: req.architecture,
      executor: req.executor,
      ipAddress: req.ipAddress || null,
      contactedAt: now,
    };
    const [manager] = await deps.prisma.$transaction([
      deps.prisma.runnerManager.upsert({
        where: { runnerId_systemId: { runnerId: runner.id, systemId } },
        create: { runnerId: runner.id, systemId, ...info },
        update: info,
      }),
      deps.prisma.runner.update({ where: { id: runner.id }, data: { contactedAt: now, systemId } }),
    ]);
    const lastUpdate = String(now.getTime());
    const deadline = Date.now() + Math.min(Math.max(req.waitMs, 0), MAX_WAIT_MS);
    for (;;) {
      const claimed = await claimJob(deps, runner, manager);
      if (claimed) {
        const pipeline = await deps.prisma.pipeline.findUniqueOrThrow({ where: { id: claimed.job.pipelineId } });
        const job = await buildPayload(deps, { job: claimed.job, pipeline, runner, token: claimed.token, externalUrl: req.externalUrl.replace(/\/+$/, "") });
        ctx?.log.info({ job: claimed.job.id, runner: runner.id }, "job handed to runner");
        return { job, lastUpdate };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { lastUpdate };
      await deps.queue.wait(Math.min(remaining, POLL_TICK_MS));
    }
  };
