import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JobPayload } from "../src/protocol.ts";

/** What the server side of a job saw. */
export interface ServerJob {
  payload: JobPayload;
  /** The log as the server assembled it from the patches. */
  trace: Buffer;
  /** Content-Range of every PATCH and the status it got. */
  patches: { range: string; status: number }[];
  /** Bodies of every `PUT /jobs/:id`. */
  updates: Record<string, unknown>[];
  uploads: { query: Record<string, string>; filename: string; content: Buffer; jobToken: string }[];
  /** Sent as `Job-Status` on trace and update responses. */
  status: string;
}

type Override = { status: number; headers?: Record<string, string> } | undefined;

/**
 * Just enough of GitLab's runner API (lib/api/ci/runner.rb) for the runner's tests: a job queue,
 * trace appends with Content-Range (416 + Range on a gap), job updates, artifact uploads
 * and downloads. Tests steer it through the hooks.
 */
export async function startFakeGitLab(o: { runnerToken?: string; port?: number } = {}) {
  const runnerToken = o.runnerToken ?? "glrt-test";
  const queue: JobPayload[] = [];
  const jobs = new Map<number, ServerJob>();
  const requests: Record<string, unknown>[] = [];
  /** Archives served by `GET /jobs/:id/artifacts` (through a redirect, as object storage would). */
  const downloads = new Map<number, Buffer>();
  const downloadTokens: string[] = [];
  const finished = new Map<number, (job: ServerJob) => void>();
  const hooks: {
    onPatch?: (job: ServerJob, start: number, body: Buffer) => Override;
    onUpdate?: (job: ServerJob, body: Record<string, unknown>) => Override;
    onUpload?: (job: ServerJob) => Override;
  } = {};

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const send = (res: ServerResponse, status: number, headers: Record<string, string> = {}, body = "") => {
    res.writeHead(status, headers).end(body);
  };
  const authorizedJob = (req: IncomingMessage, id: number, token?: unknown) => {
    const job = jobs.get(id);
    const given = token ?? req.headers["job-token"];
    return job && given === job.payload.token ? job : undefined;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://x");
    const body = await readBody(req);
    const route = `${req.method} ${url.pathname}`;
    let m: RegExpMatchArray | null;
    if (route === "POST /api/v4/runners/verify") {
      const { token } = JSON.parse(body.toString());
      return send(res, token === runnerToken ? 200 : 403);
    }
    if (route === "POST /api/v4/jobs/request") {
      const request = JSON.parse(body.toString());
      requests.push(request);
      if (request.token !== runnerToken) return send(res, 403);
      const payload = queue.shift();
      if (!payload) return send(res, 204, { "X-GitLab-Last-Update": `update-${requests.length}` });
      jobs.set(payload.id, { payload, trace: Buffer.alloc(0), patches: [], updates: [], uploads: [], status: "running" });
      return send(res, 201, { "Content-Type": "application/json" }, JSON.stringify(payload));
    }
    m = route.match(/^PATCH \/api\/v4\/jobs\/(\d+)\/trace$/);
    if (m) {
      const job = authorizedJob(req, Number(m[1]));
      if (!job) return send(res, 403);
      const range = String(req.headers["content-range"]);
      const [start, end] = range.split("-").map(Number) as [number, number];
      const override = hooks.onPatch?.(job, start, body);
      // GitLab's trace append: a start within the log truncates there (a resend), beyond it is a gap (416).
      const status = override?.status ?? (start <= job.trace.length && end === start + body.length - 1 ? 202 : 416);
      job.patches.push({ range, status });
      if (status === 202 && !override) job.trace = Buffer.concat([job.trace.subarray(0, start), body]);
      return send(res, status, { "Job-Status": job.status, Range: `0-${job.trace.length}`, ...override?.headers });
    }
    m = route.match(/^PUT \/api\/v4\/jobs\/(\d+)$/);
    if (m) {
      const update = JSON.parse(body.toString());
      const job = authorizedJob(req, Number(m[1]), update.token);
      if (!job) return send(res, 403);
      job.updates.push(update);
      const override = hooks.onUpdate?.(job, update);
      const status = override?.status ?? 200;
      if (update.state !== "running" && status === 200) finished.get(job.payload.id)?.(job);
      return send(res, status, { "Job-Status": job.status, ...override?.headers });
    }
    m = route.match(/^POST \/api\/v4\/jobs\/(\d+)\/artifacts$/);
    if (m) {
      const job = authorizedJob(req, Number(m[1]));
      if (!job) return send(res, 403);
      const override = hooks.onUpload?.(job);
      if (override) return send(res, override.status, override.headers);
      const boundary = /boundary=(.+)$/.exec(String(req.headers["content-type"]))![1]!;
      const headerEnd = body.indexOf("\r\n\r\n");
      const head = body.subarray(0, headerEnd).toString();
      const content = body.subarray(headerEnd + 4, body.lastIndexOf(`\r\n--${boundary}--`));
      job.uploads.push({
        query: Object.fromEntries(url.searchParams),
        filename: /filename="([^"]*)"/.exec(head)![1]!,
        content,
        jobToken: String(req.headers["job-token"]),
      });
      return send(res, 201, {}, "201");
    }
    m = route.match(/^GET \/api\/v4\/jobs\/(\d+)\/artifacts$/);
    if (m) {
      downloadTokens.push(String(req.headers["job-token"]));
      const running = [...jobs.values()].some((j) => j.payload.token === req.headers["job-token"]);
      if (!running || !downloads.has(Number(m[1]))) return send(res, running ? 404 : 403);
      return send(res, 302, { Location: `/storage/${m[1]}.zip` });
    }
    m = route.match(/^GET \/storage\/(\d+)\.zip$/);
    if (m) {
      res.writeHead(200, { "Content-Type": "application/zip" }).end(downloads.get(Number(m[1])));
      return;
    }
    send(res, 404);
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    runnerToken,
    requests,
    jobs,
    downloads,
    downloadTokens,
    hooks,
    /** Queues a job for the next `POST /jobs/request`. */
    enqueue(payload: JobPayload) {
      queue.push(payload);
    },
    /** Registers a job as handed out (for tests that call runJob directly). */
    assign(payload: JobPayload): ServerJob {
      const job: ServerJob = { payload, trace: Buffer.alloc(0), patches: [], updates: [], uploads: [], status: "running" };
      jobs.set(payload.id, job);
      return job;
    },
    /** Resolves when the job's final update was accepted. */
    finished(id: number): Promise<ServerJob> {
      return new Promise((resolve) => finished.set(id, resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeGitLab = Awaited<ReturnType<typeof startFakeGitLab>>;

let nextId = 1000;

/** A job payload as GitLab sends it; no git checkout unless `git_info` is given real values. */
export function jobPayload(over: Partial<JobPayload> & { script?: string[]; afterScript?: string[] } = {}): JobPayload {
  const id = over.id ?? nextId++;
  const { script, afterScript, ...rest } = over;
  return {
    id,
    token: `glcbt-job-${id}-secret`,
    allow_git_fetch: false,
    job_info: { id, name: "test", stage: "test", project_id: 1, project_name: "demo" },
    git_info: { repo_url: "file:///nonexistent", ref: "main", sha: "0".repeat(40), refspecs: [], depth: 0 },
    runner_info: { timeout: 3600 },
    variables: [{ key: "GIT_STRATEGY", value: "none", public: true, masked: false }],
    steps: [
      { name: "script", script: script ?? ["echo hello"], timeout: 3600, when: "on_success", allow_failure: false },
      ...(afterScript ? [{ name: "after_script", script: afterScript, timeout: 3600, when: "always" as const, allow_failure: false }] : []),
    ],
    artifacts: [],
    dependencies: [],
    features: {},
    ...rest,
  };
}
