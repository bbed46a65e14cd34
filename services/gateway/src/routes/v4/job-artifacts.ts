import { callServerStream } from "@quarry/grpc";
import type { ArtifactDownloadRequest } from "@quarry/proto/types/ci/v1/ArtifactDownloadRequest";
import type { ArtifactDownloadResponse__Output as DownloadMessage } from "@quarry/proto/types/ci/v1/ArtifactDownloadResponse";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { contentDisposition } from "../../entities/file.ts";
import { jobTokenAccess } from "../../http/job-token.ts";
import { sendDownload } from "../../http/download.ts";
import { p, params, wildcardParam } from "../../http/params.ts";
import { presentJobs } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** Artifact downloads may be long: they stream for at most this long. */
const DOWNLOAD_DEADLINE_MS = 30 * 60_000;

/**
 * Streams one artifact file (or one file inside the archive) from ci-service; `raw` serves it
 * inline as plain text (GitLab's raw endpoints). A presigned URL from ci-service becomes a 302.
 */
export async function sendArtifact(deps: GatewayDeps, req: Request, res: Response, request: ArtifactDownloadRequest, raw = false): Promise<void> {
  const stream = callServerStream<DownloadMessage>(
    deps.ciArtifacts,
    "DownloadArtifact",
    { ...request, allowRedirect: !request.artifactPath },
    {
      requestId: req.requestId,
      deadlineMs: DOWNLOAD_DEADLINE_MS,
    },
  );
  await sendDownload(
    res,
    stream,
    (first) => {
      const header = first.header;
      if (!header) return false;
      if (header.redirectUrl) {
        res.redirect(302, header.redirectUrl);
        return false;
      }
      res.status(200);
      const zip = header.filename.endsWith(".zip") && !raw;
      res.setHeader("Content-Type", raw ? "text/plain; charset=utf-8" : zip ? "application/zip" : "application/octet-stream");
      res.setHeader("Content-Disposition", contentDisposition(raw ? "inline" : "attachment", header.filename));
      if (Number(header.size) >= 0) res.setHeader("Content-Length", String(header.size));
      return true;
    },
    deps.log,
  );
}

/**
 * Job artifacts (GitLab's lib/api/ci/job_artifacts.rb): downloads by job or by ref and job name,
 * whole archives or single files, where job tokens work too (within the target's allowlist);
 * keeping a job's artifacts (Developer), deleting them now, or expiring a whole project's
 * (Maintainer: GitLab's destroy_artifacts).
 */
export function jobArtifactsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const base = "/projects/:id/jobs";

  // By ref first: `artifacts` is not a job id.
  r.get(`${base}/artifacts/:ref_name/download`, jobTokenAccess, scope("read"), async (req, res) => {
    const q = params(req, { ref_name: p.string(), job: p.string() });
    const { project } = await authorizeProject(deps, req, "read_build");
    await sendArtifact(deps, req, res, { projectId: project.id, refName: q.ref_name, jobName: q.job });
  });

  r.get(`${base}/artifacts/:ref_name/raw/*artifact_path`, jobTokenAccess, scope("read"), async (req, res) => {
    const q = params(req, { ref_name: p.string(), job: p.string() });
    const { project } = await authorizeProject(deps, req, "read_build");
    await sendArtifact(deps, req, res, { projectId: project.id, refName: q.ref_name, jobName: q.job, artifactPath: wildcardParam(req, "artifact_path") }, true);
  });

  r.get(`${base}/:job_id/artifacts`, jobTokenAccess, scope("read"), async (req, res) => {
    const q = params(req, { job_id: p.id() });
    const { project } = await authorizeProject(deps, req, "read_build");
    await sendArtifact(deps, req, res, { projectId: project.id, jobId: q.job_id });
  });

  r.get(`${base}/:job_id/artifacts/*artifact_path`, jobTokenAccess, scope("read"), async (req, res) => {
    const q = params(req, { job_id: p.id() });
    const { project } = await authorizeProject(deps, req, "read_build");
    await sendArtifact(deps, req, res, { projectId: project.id, jobId: q.job_id, artifactPath: wildcardParam(req, "artifact_path") });
  });

  r.post(`${base}/:job_id/artifacts/keep`, scope("write"), async (req, res) => {
    const q = params(req, { job_id: p.id() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "update_build");
    const job = await deps.ci.KeepArtifacts({ projectId: project.id, jobId: q.job_id, userId: requireUser(req).userId }, c.call);
    res.status(200).json((await presentJobs(deps, req, project, [job], c.urls))[0]);
  });

  r.delete(`${base}/:job_id/artifacts`, scope("write"), async (req, res) => {
    const q = params(req, { job_id: p.id() });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    await deps.ci.DeleteJobArtifacts({ projectId: project.id, jobId: q.job_id, userId: requireUser(req).userId }, c.call);
    res.status(204).end();
  });

  r.delete("/projects/:id/artifacts", scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "admin_project");
    await deps.ci.DeleteProjectArtifacts({ projectId: project.id }, c.call);
    // GitLab's `accepted!`: the cleanup removes the artifacts later.
    res.status(202).json({ message: "202 Accepted" });
  });

  return r;
}
