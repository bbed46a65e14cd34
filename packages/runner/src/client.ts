import { randomBytes } from "node:crypto";
import os from "node:os";
import pkg from "../package.json" with { type: "json" };
import type { FailureReason, JobPayload, JobState } from "./protocol.ts";

export const RUNNER_NAME = "quarry-runner";
export const RUNNER_VERSION: string = pkg.version;
export const RUNNER_REVISION = "unknown";
/** GOARCH-style names, as GitLab shows them (amd64, arm64). */
export const RUNNER_ARCH = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[os.arch()] ?? os.arch();

/**
 * The `info` of a job request: who we are and what we support. GitLab refuses jobs needing a
 * feature the runner lacks (Ci::Build::RUNNER_FEATURES: `artifacts_exclude` for
 * `artifacts:exclude`, `multi_build_steps` for release steps) and only cancels gracefully
 * (`canceling`, after_script) runners that send `cancel_gracefully`.
 */
export const runnerInfo = {
  name: RUNNER_NAME,
  version: RUNNER_VERSION,
  revision: RUNNER_REVISION,
  platform: "linux",
  architecture: RUNNER_ARCH,
  executor: "shell",
  shell: "bash",
  features: {
    variables: true,
    artifacts: true,
    cache: false,
    upload_multiple_artifacts: true,
    upload_raw_artifacts: true,
    refspecs: true,
    masking: true,
    trace_reset: true,
    trace_checksum: true,
    trace_size: true,
    cancelable: true,
    return_exit_code: true,
    raw_variables: true,
    artifacts_exclude: true,
    multi_build_steps: true,
    cancel_gracefully: true,
    shared: true,
  },
};

export interface JobUpdate {
  state: JobState;
  failure_reason?: FailureReason;
  exit_code?: number;
  checksum: string;
  output: { checksum: string; bytesize: number };
}

export interface RemoteJobResponse {
  status: number;
  /** `Job-Status` response header: the job's state on the server (running, canceling, canceled, failed...). */
  jobStatus: string | null;
}

export type JobRequestResult = { job: JobPayload } | { job: null; lastUpdate: string | null } | { job: null; status: number };

/** A `system_id` as gitlab-runner makes them (`s_` + 12 hex digits). */
export function newSystemId(): string {
  return `s_${randomBytes(6).toString("hex")}`;
}

/**
 * GitLab's runner HTTP API (lib/api/ci/runner.rb), the endpoints gitlab-runner's network/gitlab.go
 * calls. Methods return HTTP statuses; network errors reject.
 */
export class RunnerApi {
  private readonly base: string;
  private readonly userAgent = `${RUNNER_NAME} ${RUNNER_VERSION} (${process.platform}/${RUNNER_ARCH})`;

  constructor(url: string) {
    this.base = `${url.replace(/\/+$/, "")}/api/v4`;
  }

  private fetch(
    path: string,
    // `duplex: "half"` is what undici requires for a streamed request body.
    init: Omit<RequestInit, "headers"> & { headers?: Record<string, string>; duplex?: "half" },
  ): Promise<Response> {
    return fetch(`${this.base}${path}`, { ...init, headers: { "User-Agent": this.userAgent, ...init.headers } } as RequestInit);
  }

  private json(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    return this.fetch(path, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  }

  /** `POST /runners/verify`: is this runner token valid? */
  async verify(token: string, systemId?: string): Promise<boolean> {
    const res = await this.json("POST", "/runners/verify", { token, ...(systemId ? { system_id: systemId } : {}) });
    await res.body?.cancel();
    return res.status === 200;
  }

  /**
   * `POST /jobs/request` (may be held open by the server as a long poll; fetch's own timeouts
   * are minutes, well above GitLab's ~50 s).
   */
  async requestJob(token: string, systemId: string, lastUpdate: string | null, signal: AbortSignal): Promise<JobRequestResult> {
    const res = await this.json(
      "POST",
      "/jobs/request",
      { token, system_id: systemId, info: runnerInfo, ...(lastUpdate ? { last_update: lastUpdate } : {}) },
      signal,
    );
    if (res.status === 201) return { job: (await res.json()) as JobPayload };
    await res.body?.cancel();
    if (res.status === 204) return { job: null, lastUpdate: res.headers.get("X-GitLab-Last-Update") };
    return { job: null, status: res.status };
  }

  /** `PATCH /jobs/:id/trace` with the bytes from `start` (Content-Range end inclusive). */
  async patchTrace(job: JobPayload, start: number, content: Buffer): Promise<RemoteJobResponse & { range: string | null }> {
    const res = await this.fetch(`/jobs/${job.id}/trace?debug_trace=false`, {
      method: "PATCH",
      headers: {
        "JOB-TOKEN": job.token,
        "Content-Type": "text/plain",
        "Content-Range": `${start}-${start + content.length - 1}`,
      },
      body: content,
    });
    await res.body?.cancel();
    return { status: res.status, jobStatus: res.headers.get("Job-Status"), range: res.headers.get("Range") };
  }

  /** `PUT /jobs/:id`: keepalive (`running`) or the final state. */
  async updateJob(job: JobPayload, update: JobUpdate): Promise<RemoteJobResponse> {
    const res = await this.json("PUT", `/jobs/${job.id}`, { token: job.token, ...update });
    await res.body?.cancel();
    return { status: res.status, jobStatus: res.headers.get("Job-Status") };
  }

  /**
   * `POST /jobs/:id/artifacts` as multipart/form-data with the archive, streamed, in the field
   * `file` (what gitlab-runner's artifacts-uploader sends).
   */
  async uploadArtifacts(
    job: JobPayload,
    query: Record<string, string>,
    filename: string,
    content: AsyncIterable<Uint8Array>,
  ): Promise<{ status: number; statusText: string; message: string }> {
    const boundary = `quarry-runner-${randomBytes(12).toString("hex")}`;
    async function* multipart() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename.replace(/["\r\n]/g, "_")}"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      );
      yield* content;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const res = await this.fetch(`/jobs/${job.id}/artifacts?${new URLSearchParams(query)}`, {
      method: "POST",
      headers: { "JOB-TOKEN": job.token, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: multipart(),
      duplex: "half",
    });
    return { status: res.status, statusText: res.statusText, message: await res.text().catch(() => "") };
  }

  /** `GET /jobs/:id/artifacts` of a dependency, authenticated with the running job's token. */
  downloadArtifacts(dependencyId: number, jobToken: string): Promise<Response> {
    return this.fetch(`/jobs/${dependencyId}/artifacts`, { method: "GET", headers: { "JOB-TOKEN": jobToken }, redirect: "follow" });
  }
}
