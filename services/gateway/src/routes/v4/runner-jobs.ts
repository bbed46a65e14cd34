import type { JobUpdateResponse__Output as JobUpdate } from "@quarry/proto/types/ci/v1/JobUpdateResponse";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { ApiError, forbidden } from "../../http/errors.ts";
import { p, params } from "../../http/params.ts";
import { jobRequestEntity } from "../../entities/job-request.ts";
import { ctx } from "./context.ts";

/** How often the runner should send its trace (GitLab's X-GitLab-Trace-Update-Interval). */
const TRACE_UPDATE_INTERVAL_SECONDS = "3";

/** Reads a raw request body (trace chunks are text/plain, which no body parser takes). */
async function rawBody(req: Request, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/** Headers that tell the runner what became of the job (e.g. canceled meanwhile). */
function jobStatusHeaders(res: Response, update: JobUpdate): void {
  res.setHeader("Job-Status", update.status);
  res.setHeader("X-GitLab-Trace-Update-Interval", TRACE_UPDATE_INTERVAL_SECONDS);
}

/**
 * The runner side of jobs (GitLab's lib/api/ci/runner.rb `jobs` namespace): runners take jobs,
 * report their state and stream their traces. Runners authenticate with their own token in
 * the body; a job's calls with that job's token (body `token` or the JOB-TOKEN header).
 */
export function runnerJobsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { ci } = deps;

  r.post("/jobs/request", async (req, res) => {
    const q = params(req, {
      token: p.string(),
      system_id: p.string().optional(),
      last_update: p.string().optional(),
      info: p.object().optional(),
    });
    const info = q.info ?? {};
    const text = (key: string) => (typeof info[key] === "string" ? (info[key] as string) : "");
    const c = ctx(deps, req, res);
    const waitMs = deps.config.jobRequestWaitMs;
    const answer = await ci.RequestJob(
      {
        token: q.token,
        systemId: q.system_id ?? "",
        name: text("name"),
        version: text("version"),
        revision: text("revision"),
        platform: text("platform"),
        architecture: text("architecture"),
        executor: text("executor"),
        ipAddress: req.ip ?? "",
        waitMs,
        externalUrl: deps.config.externalUrl,
        lastUpdate: q.last_update ?? "",
      },
      { ...c.call, deadlineMs: waitMs + 30_000 },
    );
    res.setHeader("X-GitLab-Last-Update", answer.lastUpdate);
    if (!answer.job) return res.status(204).end();
    res.status(201).json(jobRequestEntity(answer.job));
  });

  r.put("/jobs/:id", async (req, res) => {
    const q = params(req, {
      id: p.int(),
      token: p.string(),
      state: p.string().optional(),
      failure_reason: p.string().optional(),
      exit_code: p.int().optional(),
    });
    const c = ctx(deps, req, res);
    const update = await ci.UpdateJob(
      { jobId: q.id, token: q.token, state: q.state ?? "", failureReason: q.failure_reason ?? "", exitCode: q.exit_code },
      c.call,
    );
    jobStatusHeaders(res, update);
    res.status(200).end();
  });

  r.patch("/jobs/:id/trace", async (req, res) => {
    const q = params(req, { id: p.int() });
    const token = req.get("job-token") ?? (typeof req.query.token === "string" ? req.query.token : "");
    if (!token) throw forbidden();
    const data = await rawBody(req, deps.config.maxBodyBytes);
    const range = /^(\d+)-(\d+)$/.exec(req.get("content-range") ?? "");
    if (!range) throw new ApiError(400, { message: "400 Bad request - Content-Range header required" });
    const c = ctx(deps, req, res);
    const update = await ci.AppendTrace({ jobId: q.id, token, offset: Number(range[1]), data }, c.call);
    jobStatusHeaders(res, update);
    res.setHeader("Range", `0-${update.traceLength}`);
    if (update.rangeMismatch) return res.status(416).json({ message: "416 Range Not Satisfiable" });
    res.status(202).end();
  });

  return r;
}
