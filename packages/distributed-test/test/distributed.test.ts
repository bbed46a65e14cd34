// The distributed mode as separate processes from the built bundles, two replicas of every
// stateless service (two gateways, two ci-service workers beside one api and one artifacts role,
// two hook-, mirror- and collab-services): work is done once, survives kill -9 of a replica, and
// an unreachable service is a 503 that heals. Every wait is on a condition (waitFor).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestSmtp, type TestSmtp } from "@quarry/hook-service/testing";
import { startGitHttpRemote, waitFor, type GitHttpRemote } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  api,
  type CountingGitFront,
  type DeliveryReceiver,
  expectJson,
  type HandedOut,
  onAnyGateway,
  startCountingGitFront,
  startDeliveryReceiver,
  startRunners,
} from "../src/clients.ts";
import { type Cluster, startCluster } from "../src/cluster.ts";

const GIT_USER = "mirror-user";
const GIT_PASSWORD = "Mirr0r-Secret-pw";

let cluster: Cluster | undefined;
let stopCluster: (() => Promise<void>) | undefined;
let smtp: TestSmtp | undefined;
let receiver: DeliveryReceiver | undefined;
let remote: GitHttpRemote | undefined;
let gitFront: CountingGitFront | undefined;
let work: string;
let archive: Buffer;

let runnerToken: string;
let projectId: number;
let assignee: { id: number; username: string; email: string };
let mirrorRepo: string;
let mirrorId: number;
let commits = 0;

const urls = (): [string, string] => cluster!.urls;
const other = (g: number) => urls()[1 - g] as string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "quarry-distributed-work-"));
  writeFileSync(path.join(work, "result.txt"), "built by a runner\n");
  execFileSync("zip", ["-q", path.join(work, "artifacts.zip"), "result.txt"], { cwd: work });
  archive = readFileSync(path.join(work, "artifacts.zip"));
  smtp = await startTestSmtp();
  receiver = await startDeliveryReceiver();
  remote = await startGitHttpRemote({ username: GIT_USER, password: GIT_PASSWORD });
  gitFront = await startCountingGitFront(remote.baseUrl);
  cluster = await startCluster({ smtpUrl: smtp.url, registerStop: (stop) => (stopCluster = stop) });

  const runner = await expectJson(api(urls()[0], "/user/runners", { json: { runner_type: "instance_type", description: "distributed" } }), 201);
  runnerToken = runner.token;
  const project = await expectJson(api(urls()[0], "/projects", { json: { name: "distributed", initialize_with_readme: true } }), 201);
  projectId = project.id;
  const name = `u${process.pid}`;
  const user = await expectJson(
    api(urls()[1], "/users", {
      json: { username: name, email: `${name}@example.com`, name: "Assignee", password: "secret-password-1", skip_confirmation: true },
    }),
    201,
  );
  assignee = { id: user.id, username: name, email: `${name}@example.com` };
  await expectJson(api(urls()[1], `/projects/${projectId}/members`, { json: { user_id: assignee.id, access_level: 30 } }), 201);
  await expectJson(api(urls()[0], `/projects/${projectId}/hooks`, { json: { url: receiver.url, push_events: true, issues_events: true } }), 201);
  remote.createRepository("mirror");
  mirrorRepo = "/mirror.git";
  const mirror = await expectJson(
    api(urls()[1], `/projects/${projectId}/remote_mirrors`, {
      json: { url: `${gitFront.baseUrl.replace("http://", `http://${GIT_USER}:${GIT_PASSWORD}@`)}/mirror.git`, enabled: true },
    }),
    201,
  );
  mirrorId = mirror.id;
}, 240_000);

afterAll(async () => {
  await stopCluster?.();
  await gitFront?.close();
  await remote?.close();
  await receiver?.close();
  await smtp?.close();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

/** Commits `files` on main through gateway `g` (any live one when it is down); the new head sha. */
async function commit(files: Record<string, string>, g = 0): Promise<string> {
  const n = ++commits;
  const exists = async (file: string) =>
    (await api(urls()[g] as string, `/projects/${projectId}/repository/files/${encodeURIComponent(file)}?ref=main`)).status === 200;
  const actions: { action: string; file_path: string; content: string }[] = [];
  for (const [file, content] of Object.entries(files)) actions.push({ action: (await exists(file)) ? "update" : "create", file_path: file, content });
  const order = [urls()[g] as string, other(g)];
  const res = await onAnyGateway(order, (base) =>
    api(base, `/projects/${projectId}/repository/commits`, { json: { branch: "main", commit_message: `change ${n}`, actions } }),
  );
  return (await expectJson(res, 201)).id;
}

const ciConfig = (jobs: number, tag: string) =>
  Array.from({ length: jobs }, (_, i) => `${tag}-${i + 1}:\n  script: [echo ${tag} ${i + 1}]\n  artifacts:\n    paths: [result.txt]\n`).join("");

/** What a runner does with a job: uploads its archive through its gateway and reports success. */
async function runJob(job: HandedOut): Promise<void> {
  const order = [urls()[job.gateway] as string, other(job.gateway)];
  const form = new FormData();
  form.append("file", new Blob([archive]), "artifacts.zip");
  const uploaded = await onAnyGateway(order, (base) =>
    fetch(`${base}/api/v4/jobs/${job.jobId}/artifacts?artifact_format=zip&artifact_type=archive`, {
      method: "POST",
      headers: { "JOB-TOKEN": job.token },
      body: form,
      signal: AbortSignal.timeout(30_000),
    }),
  );
  await expectJson(uploaded, 201);
  const updated = await onAnyGateway(order, (base) =>
    fetch(`${base}/api/v4/jobs/${job.jobId}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: job.token, state: "success" }),
      signal: AbortSignal.timeout(30_000),
    }),
  );
  if (updated.status !== 200) throw new Error(`job ${job.jobId} update: ${updated.status} ${await updated.text()}`);
}

/** The pipeline of `sha`, once the ci-service workers made it from the push. */
const pipelineOf = (sha: string) =>
  waitFor(
    async () => {
      const list = await expectJson(
        onAnyGateway(urls(), (base) => api(base, `/projects/${projectId}/pipelines?sha=${sha}`)),
        200,
      );
      return list.length === 1 ? (list[0] as { id: number; status: string }) : null;
    },
    // A push event a killed worker held comes back within the bus's liveness window (30 s), though
    // ci-service's push consumer allows its handler 120 s; the rest is a loaded machine's slack.
    { timeoutMs: 90_000, intervalMs: 200, message: `pipeline of ${sha}` },
  );

/** Runs the pipeline of `sha` with four runner loops, two per gateway; answers the handed-out jobs. */
async function runPipeline(sha: string, during?: () => Promise<void>): Promise<{ pipelineId: number; handedOut: HandedOut[] }> {
  const pipeline = await pipelineOf(sha);
  const runners = startRunners(
    urls,
    runnerToken,
    [
      { name: "a1", gateway: 0 },
      { name: "a2", gateway: 0 },
      { name: "b1", gateway: 1 },
      { name: "b2", gateway: 1 },
    ],
    runJob,
  );
  try {
    await during?.();
    await waitFor(
      async () => {
        const p = await expectJson(
          onAnyGateway(urls(), (base) => api(base, `/projects/${projectId}/pipelines/${pipeline.id}`)),
          200,
        );
        return p.status === "success";
      },
      { timeoutMs: 120_000, intervalMs: 250, message: `pipeline ${pipeline.id} to succeed` },
    );
  } finally {
    await runners.stop();
  }
  expect(runners.errors).toEqual([]);
  return { pipelineId: pipeline.id, handedOut: runners.handedOut };
}

/** Every job of the pipeline was handed out exactly once. */
async function expectEachJobOnce(pipelineId: number, handedOut: HandedOut[], jobs: number): Promise<void> {
  const listed = await expectJson(
    onAnyGateway(urls(), (base) => api(base, `/projects/${projectId}/pipelines/${pipelineId}/jobs?per_page=100`)),
    200,
  );
  const ids = (listed as { id: number }[]).map((j) => j.id).sort((a, b) => a - b);
  expect(ids).toHaveLength(jobs);
  const mine = handedOut.filter((h) => ids.includes(h.jobId));
  expect(mine.map((h) => h.jobId).sort((a, b) => a - b)).toEqual(ids);
}

/** Push deliveries (Idempotency-Key → count) whose `after` is `sha`. */
const pushDeliveries = (sha: string) => [...receiver!.byKey.values()].filter((list) => list[0]?.body.object_kind === "push" && list[0]?.body.after === sha);

/** Waits until the mirror holds `sha` on main and its sync has ended. */
const mirrored = (sha: string) =>
  waitFor(
    async () => {
      if (remote!.refs("mirror")["refs/heads/main"] !== sha) return false;
      const m = await expectJson(
        onAnyGateway(urls(), (base) => api(base, `/projects/${projectId}/remote_mirrors/${mirrorId}`)),
        200,
      );
      return m.update_status === "finished";
    },
    { timeoutMs: 90_000, intervalMs: 200, message: `mirror at ${sha}` },
  );

const mailsTo = (email: string, subject: string) => smtp!.mails.filter((m) => m.to.includes(email) && m.headers.subject?.includes(subject));

describe("distributed mode, two replicas of each stateless service", () => {
  it("hands each job of a pushed pipeline out once across runners on both gateways; artifacts go up through one and down through the other", async () => {
    const sha = await commit({ ".gitlab-ci.yml": ciConfig(6, "build") });
    const { pipelineId, handedOut } = await runPipeline(sha);
    await expectEachJobOnce(pipelineId, handedOut, 6);
    // Both gateways handed out work.
    expect(new Set(handedOut.map((h) => h.gateway))).toEqual(new Set([0, 1]));
    for (const job of handedOut) {
      const res = await api(other(job.gateway), `/projects/${projectId}/jobs/${job.jobId}/artifacts`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(archive)).toBe(true);
    }
  });

  it("sends artifact calls to CI_ARTIFACTS_ADDRESS: with the artifacts role down downloads are 503 while the api answers", async () => {
    const job = (await expectJson(api(urls()[0], `/projects/${projectId}/jobs?per_page=1`), 200))[0] as { id: number };
    await cluster!.ciArtifacts.kill();
    try {
      expect((await api(urls()[1], `/projects/${projectId}/jobs/${job.id}/artifacts`)).status).toBe(503);
      expect((await api(urls()[1], `/projects/${projectId}/jobs/${job.id}`)).status).toBe(200);
    } finally {
      await cluster!.ciArtifacts.start();
    }
    await waitFor(async () => (await api(urls()[0], `/projects/${projectId}/jobs/${job.id}/artifacts`)).status === 200, { timeoutMs: 20_000, intervalMs: 200 });
  });

  it("delivers each webhook once, syncs the push mirror once per push and sends each notification e-mail once", async () => {
    // The mirror's first sync (on creation) has ended before the pushes are counted.
    const head = (await expectJson(api(urls()[0], `/projects/${projectId}/repository/branches/main`), 200)).commit.id as string;
    await api(urls()[0], `/projects/${projectId}/remote_mirrors/${mirrorId}/sync`, { method: "POST" });
    await mirrored(head);
    const before = gitFront!.pushes.get(mirrorRepo) ?? 0;
    const shas: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sha = await commit({ [`notes/${i}.txt`]: `note ${i}\n` }, i % 2);
      shas.push(sha);
      await mirrored(sha);
    }
    expect((gitFront!.pushes.get(mirrorRepo) ?? 0) - before).toBe(3);

    const issue = await expectJson(api(urls()[1], `/projects/${projectId}/issues`, { json: { title: "Replicated issue", assignee_ids: [assignee.id] } }), 201);
    await waitFor(() => mailsTo(assignee.email, "Replicated issue").length > 0, { timeoutMs: 60_000, message: "assignment e-mail" });
    for (const sha of shas) await waitFor(() => pushDeliveries(sha).length === 1, { timeoutMs: 60_000, message: `push hook of ${sha}` });
    await waitFor(
      () => [...receiver!.byKey.values()].some((l) => l[0]?.body.object_kind === "issue" && (l[0].body.object_attributes as { iid: number }).iid === issue.iid),
      { timeoutMs: 60_000, message: "issue hook" },
    );
    // Once each: after the last delivery was seen, a fresh issue's hook and mail arriving means the
    // replicas have gone past the earlier events, and nothing came twice.
    const marker = await expectJson(api(urls()[0], `/projects/${projectId}/issues`, { json: { title: "Marker issue", assignee_ids: [assignee.id] } }), 201);
    await waitFor(() => mailsTo(assignee.email, "Marker issue").length > 0, { timeoutMs: 60_000, message: "marker e-mail" });
    await waitFor(
      () =>
        [...receiver!.byKey.values()].some((l) => l[0]?.body.object_kind === "issue" && (l[0].body.object_attributes as { iid: number }).iid === marker.iid),
      { timeoutMs: 60_000, message: "marker hook" },
    );
    for (const [key, list] of receiver!.byKey) expect(list, `deliveries with Idempotency-Key ${key}`).toHaveLength(1);
    for (const sha of shas) expect(pushDeliveries(sha)).toHaveLength(1);
    expect(mailsTo(assignee.email, "Replicated issue")).toHaveLength(1);
    expect(mailsTo(assignee.email, "Marker issue")).toHaveLength(1);
  });

  for (const victim of [0, 1] as const) {
    it(`kill -9 of replica ${victim + 1} of each stateless kind during work loses nothing; the killed ones serve again after restart`, async () => {
      const r = cluster!.replicas;
      const kinds = [r.gateway, r.ciWorker, r.hook, r.mirror, r.collab];
      const survivor = (1 - victim) as 0 | 1;
      const mailsBefore = smtp!.mails.length;
      let restarted = false;
      onTestFinished(async () => {
        // A failure must not leave the next tests with replicas down.
        if (!restarted) for (const k of kinds) if (!k[victim].running) await k[victim].start();
      });
      // The mirror replica goes first, while no sync runs: a sync killed mid-push is only taken
      // over when its lease (push timeout + 1 min) ends, longer than this test waits.
      await r.mirror[victim].kill();
      const sha = await commit({ ".gitlab-ci.yml": ciConfig(4, `round${victim}`) }, survivor);
      const title = `Issue during kill ${victim}`;
      await expectJson(api(urls()[survivor] as string, `/projects/${projectId}/issues`, { json: { title, assignee_ids: [assignee.id] } }), 201);
      // The rest die with the push's and the issue's events in flight (pipeline creation, webhook
      // deliveries, the e-mail) and the pipeline's jobs about to be run.
      await Promise.all([r.gateway[victim].kill(), r.ciWorker[victim].kill(), r.hook[victim].kill(), r.collab[victim].kill()]);

      const { pipelineId, handedOut } = await runPipeline(sha);
      await expectEachJobOnce(pipelineId, handedOut, 4);
      await mirrored(sha);
      await waitFor(() => pushDeliveries(sha).length > 0, { timeoutMs: 90_000, message: `push hook of ${sha}` });
      await waitFor(() => mailsTo(assignee.email, title).length > 0, { timeoutMs: 90_000, message: "e-mail of the issue" });
      // A replica killed inside a delivery may have sent it before dying: a retry then carries
      // the same Idempotency-Key, which is what receivers deduplicate on.
      expect(new Set(pushDeliveries(sha).map((l) => l[0]?.body.checkout_sha))).toEqual(new Set([sha]));
      expect(smtp!.mails.length).toBeGreaterThan(mailsBefore);

      // Restarted, each killed replica serves: the gateway directly, the others once their peer is gone.
      await Promise.all(kinds.map((k) => k[victim].start()));
      restarted = true;
      expect((await api(urls()[victim] as string, `/projects/${projectId}`)).status).toBe(200);
      await Promise.all(kinds.slice(1).map((k) => k[survivor].stop()));
      try {
        const after = await commit({ [`after/${victim}.txt`]: "after restart\n" }, victim);
        await waitFor(async () => (await api(urls()[victim] as string, `/projects/${projectId}/issues?per_page=1`)).status === 200, {
          timeoutMs: 30_000,
          intervalMs: 200,
        });
        await mirrored(after);
        await waitFor(() => pushDeliveries(after).length > 0, { timeoutMs: 60_000, message: `push hook of ${after}` });
        // The restarted ci-service worker made the pipeline; nobody needs it run.
        const made = await pipelineOf(after);
        await expectJson(api(urls()[victim] as string, `/projects/${projectId}/pipelines/${made.id}/cancel`, { method: "POST" }), 200);
      } finally {
        await Promise.all(kinds.slice(1).map((k) => k[survivor].start()));
      }
      // Work a killed replica held comes back after its lease: the bus's liveness window (30 s) or a
      // delivery's (timeout + 30 s); restarts on a loaded machine take their time too.
    }, 300_000);
  }

  it("answers 503 within the deadline while collab-service is unreachable, and 200 again once it is back", async () => {
    const { collab } = cluster!.replicas;
    await Promise.all(collab.map((c) => c.kill()));
    try {
      const started = Date.now();
      const res = await api(urls()[0], `/projects/${projectId}/issues`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: "503 Service Unavailable" });
      expect(Date.now() - started).toBeLessThan(cluster!.deadlineMs + 2_000);
    } finally {
      await Promise.all(collab.map((c) => c.start()));
    }
    await waitFor(async () => (await api(urls()[1], `/projects/${projectId}/issues`)).status === 200, { timeoutMs: 30_000, intervalMs: 200 });
  });
});
