import busboy from "busboy";
import { callClientStream } from "@quarry/grpc";
import type { JobUpdateResponse__Output as JobUpdate } from "@quarry/proto/types/ci/v1/JobUpdateResponse";
import type { UploadArtifactResponse__Output as UploadArtifactResponse } from "@quarry/proto/types/ci/v1/UploadArtifactResponse";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { ApiError, forbidden, unauthorized } from "../../http/errors.ts";
import { jobTokenAccess } from "../../http/job-token.ts";
import { p, params } from "../../http/params.ts";
import { jobRequestEntity } from "../../entities/job-request.ts";
import { ctx } from "./context.ts";
import { sendArtifact } from "./job-artifacts.ts";

/** How often the runner should send its trace (GitLab's X-GitLab-Trace-Update-Interval). */
const TRACE_UPDATE_INTERVAL_SECONDS = "3";

/** Artifact uploads take their multipart body as a stream (see app.ts). */
export const isArtifactUpload = (req: Request): boolean => req.method === "POST" && /^\/api\/v4\/jobs\/\d+\/artifacts$/.test(req.path);

/** How long an artifact upload may take. */
const UPLOAD_DEADLINE_MS = 30 * 60_000;

/** A multipart upload that cannot be read to its end. */
const unreadableUpload = () => new ApiError(400, { message: "400 Bad request" });

/** The `file` part of a multipart upload, with the form fields that came before it. */
function multipartFile(
  req: Request,
  maxBytes: number,
): Promise<{ stream: NodeJS.ReadableStream & { truncated?: boolean }; filename: string; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes } });
    } catch {
      return reject(new ApiError(400, { error: "file is missing" }));
    }
    parser.on("field", (name, value) => (fields[name] = value));
    parser.on("file", (name, stream, info) => {
      // A body cut short inside a file part destroys its stream with an error, possibly before (or
      // without) anyone reading it: a part skipped below, or the file when the job token is refused
      // first. Reading it later still throws that error (for-await sees `errored`); this listener
      // only keeps the process from treating it as unhandled.
      stream.on("error", () => {});
      if (name !== "file") return stream.resume();
      resolve({ stream, filename: info.filename ?? "", fields });
    });
    parser.on("close", () => reject(new ApiError(400, { error: "file is missing" })));
    // A body busboy cannot read (no parts, cut short, malformed headers) is the client's mistake.
    parser.on("error", () => reject(unreadableUpload()));
    req.pipe(parser);
  });
}

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
      id: p.id(),
      token: p.string(),
      state: p.name("state").optional(),
      failure_reason: p.name("failure_reason").optional(),
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
    const q = params(req, { id: p.id() });
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

  r.post("/jobs/:id/artifacts", async (req, res) => {
    const q = params(req, { id: p.id() });
    const token = req.get("job-token") ?? (typeof req.query.token === "string" ? req.query.token : "");
    if (!token) throw forbidden();
    const declared = Number(req.get("content-length") ?? 0);
    if (declared > deps.config.maxArtifactBytes) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    const file = await multipartFile(req, deps.config.maxArtifactBytes);
    const field = (name: string) => (typeof req.query[name] === "string" ? (req.query[name] as string) : (file.fields[name] ?? ""));
    async function* messages() {
      yield {
        header: {
          jobId: q.id,
          token,
          artifactType: field("artifact_type"),
          artifactFormat: field("artifact_format"),
          expireIn: field("expire_in"),
          filename: file.filename,
        },
      };
      try {
        for await (const chunk of file.stream) yield { data: chunk as Buffer };
      } catch {
        // The multipart body ended inside the file (or broke): nothing is stored.
        throw unreadableUpload();
      }
      if (file.stream.truncated) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    }
    const stored = await callClientStream<unknown, UploadArtifactResponse>(deps.ciArtifacts, "UploadArtifact", messages(), {
      requestId: req.requestId,
      deadlineMs: UPLOAD_DEADLINE_MS,
    });
    const f = stored.file!;
    res.status(201).json({ file_type: f.fileType, file_format: f.fileFormat, filename: f.filename, size: Number(f.size) });
  });

  // A job downloads the artifacts of a job it depends on, with its own job token.
  r.get("/jobs/:id/artifacts", jobTokenAccess, async (req, res) => {
    const q = params(req, { id: p.id() });
    const job = req.principal?.jobToken;
    if (!job) throw unauthorized();
    await sendArtifact(deps, req, res, { projectId: job.projectId, jobId: q.id });
  });

  return r;
}
