import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startRunner, verifyRunner, type RunnerOptions } from "../src/index.ts";
import { jobPayload, startFakeGitLab } from "./fake-gitlab.ts";
import { tempDir, useFakeGitLab } from "./helpers.ts";

const gitlab = useFakeGitLab();

const fast = { pollIntervalMs: 20, updateIntervalMs: 20 };

/** A logger that keeps the warnings' messages. */
function recordingLog() {
  const warnings: { details: object; msg?: string }[] = [];
  const ignore = () => {};
  return { warnings, log: { info: ignore, debug: ignore, error: ignore, warn: (details: object, msg?: string) => void warnings.push({ details, msg }) } };
}
const options = async (over: Partial<RunnerOptions> = {}): Promise<RunnerOptions> => ({
  url: gitlab.url,
  token: gitlab.runnerToken,
  buildsDir: await tempDir("runner-builds"),
  ...fast,
  ...over,
});

describe("runner", () => {
  it("requests jobs with its info and system ID, echoes X-GitLab-Last-Update, and runs what it gets", async () => {
    const o = await options();
    const seen = gitlab.requests.length;
    const runner = startRunner(o);
    await vi.waitFor(() => expect(gitlab.requests.length).toBeGreaterThan(seen + 1));
    const payload = jobPayload({ script: ["echo from-the-queue"] });
    const done = gitlab.finished(payload.id);
    gitlab.enqueue(payload);
    const job = await done;
    await runner.stop();

    expect(job.updates.at(-1)).toMatchObject({ state: "success" });
    expect(job.trace.toString()).toContain("from-the-queue");
    const [first, second] = gitlab.requests.slice(seen) as { system_id: string; last_update?: string; info: { features: Record<string, boolean> } }[];
    expect(first).toMatchObject({
      token: gitlab.runnerToken,
      system_id: expect.stringMatching(/^s_[0-9a-f]{12}$/),
      info: {
        name: "quarry-runner",
        executor: "shell",
        shell: "bash",
        platform: "linux",
      },
    });
    const advertised = Object.entries(first!.info.features as Record<string, boolean>)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .sort();
    expect(advertised).toEqual(
      ["artifacts", "artifacts_exclude", "cancel_gracefully", "cancelable", "masking", "multi_build_steps", "raw_variables", "refspecs"]
        .concat(["return_exit_code", "shared", "trace_checksum", "trace_reset", "trace_size", "upload_multiple_artifacts"])
        .concat(["upload_raw_artifacts", "variables"])
        .sort(),
    );
    expect(first!.info.features.cache).toBe(false);
    expect(first!.last_update).toBeUndefined();
    // The fake names each 204's update after the request count.
    expect(second!.last_update).toBe(`update-${seen + 1}`);
    expect(await readFile(path.join(o.buildsDir, ".runner_system_id"), "utf8")).toBe(`${first!.system_id}\n`);
  });

  it("keeps its system ID across restarts with the same builds directory", async () => {
    const o = await options();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const seen = gitlab.requests.length;
      const runner = startRunner(o);
      await vi.waitFor(() => expect(gitlab.requests.length).toBeGreaterThan(seen));
      await runner.stop();
      ids.push((gitlab.requests[seen] as { system_id: string }).system_id);
    }
    expect(ids[0]).toBe(ids[1]);
  });

  it("runs up to `concurrency` jobs at the same time", async () => {
    const dir = await tempDir("meet");
    // Each job waits for the other one: only running both at once lets them finish.
    const meet = (mine: string, theirs: string) => [`touch ${dir}/${mine}`, `while [ ! -f ${dir}/${theirs} ]; do sleep 0.02; done`];
    const a = jobPayload({ script: meet("a", "b") });
    const b = jobPayload({ script: meet("b", "a") });
    const done = Promise.all([gitlab.finished(a.id), gitlab.finished(b.id)]);
    gitlab.enqueue(a);
    gitlab.enqueue(b);
    const runner = startRunner(await options({ concurrency: 2 }));
    const jobs = await done;
    await runner.stop();
    expect(jobs.map((j) => j.updates.at(-1)!.state)).toEqual(["success", "success"]);
  });

  it("stop() waits for the running job to finish and report", async () => {
    const payload = jobPayload({ script: ["sleep 0.3", "echo finished-after-stop"] });
    gitlab.enqueue(payload);
    const runner = startRunner(await options());
    await vi.waitFor(() => expect(gitlab.jobs.get(payload.id)?.patches.length).toBeGreaterThan(0));
    await runner.stop();
    const job = gitlab.jobs.get(payload.id)!;
    expect(job.updates.at(-1)).toMatchObject({ state: "success" });
    expect(job.trace.toString()).toContain("finished-after-stop");
  });

  it("backs off while the server is unreachable and picks up jobs once it is back", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const { log, warnings } = recordingLog();
    const runner = startRunner(await options({ url: `http://127.0.0.1:${port}`, log }));
    await vi.waitFor(() => expect(warnings.map((w) => w.msg)).toContain("requesting a job failed"));
    expect(warnings[0]!.details).toMatchObject({ retryInMs: 1000 });
    const late = await startFakeGitLab({ port });
    try {
      const payload = jobPayload();
      const done = late.finished(payload.id);
      late.enqueue(payload);
      expect((await done).updates.at(-1)).toMatchObject({ state: "success" });
    } finally {
      await runner.stop();
      await late.close();
    }
  });

  it("keeps polling (and stops cleanly) when the server rejects its token", async () => {
    const seen = gitlab.requests.length;
    const { log, warnings } = recordingLog();
    const runner = startRunner(await options({ token: "glrt-wrong", log }));
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(1), { timeout: 5000 });
    await runner.stop();
    expect(gitlab.requests.slice(seen).every((r) => r.token === "glrt-wrong")).toBe(true);
    expect(warnings[0]).toMatchObject({ msg: "job request rejected", details: { status: 403, retryInMs: 1000 } });
    expect(warnings[1]).toMatchObject({ details: { status: 403, retryInMs: 2000 } });
  });

  it("verifies runner tokens", async () => {
    expect(await verifyRunner({ url: gitlab.url, token: gitlab.runnerToken })).toBe(true);
    expect(await verifyRunner({ url: gitlab.url, token: "glrt-wrong" })).toBe(false);
  });
});
