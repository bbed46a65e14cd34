import { writeFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { jobPayload, type ServerJob } from "./fake-gitlab.ts";
import { plain, runOnServer, tempDir, useFakeGitLab } from "./helpers.ts";

const gitlab = useFakeGitLab();
afterEach(() => {
  delete gitlab.hooks.onPatch;
  delete gitlab.hooks.onUpdate;
});

/** The final update's checksum and size describe exactly the log the server holds. */
function expectServerLogComplete(server: ServerJob) {
  const final = server.updates.at(-1)!;
  const checksum = `crc32:${crc32(server.trace).toString(16)}`;
  expect(final).toMatchObject({ checksum, output: { checksum, bytesize: server.trace.length } });
}

/** A shell command that waits until the test creates `flag`. */
const waitFor = (flag: string) => `while [ ! -f ${flag} ]; do sleep 0.02; done`;

describe("trace streaming and job updates", () => {
  it("streams the log while the job runs and ends with the whole log and its checksum", async () => {
    const flag = path.join(await tempDir("flag"), "seen");
    gitlab.hooks.onPatch = (_job, _start, body) => {
      if (body.includes("first-line")) writeFileSync(flag, "");
      return undefined;
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo first-line", waitFor(flag), "echo second-line"] }));
    expect(final.state).toBe("success");
    // first-line reached the server while the script was still waiting for it.
    expect(server.patches.length).toBeGreaterThan(1);
    expect(server.patches[0]!.range).toMatch(/^0-\d+$/);
    expectServerLogComplete(server);
    expect(plain(server.trace.toString()).trimEnd().endsWith("Job succeeded")).toBe(true);
  });

  it("resends from the server's length after a 416 (the server lost part of the log)", async () => {
    const flag = path.join(await tempDir("flag"), "seen");
    let truncated = false;
    gitlab.hooks.onPatch = (job, _start, body) => {
      if (body.includes("first-line")) writeFileSync(flag, "");
      if (body.includes("second-line") && !truncated) {
        truncated = true;
        job.trace = job.trace.subarray(0, 10);
      }
      return undefined;
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo first-line", waitFor(flag), "echo second-line"] }));
    expect(final.state).toBe("success");
    const mismatch = server.patches.findIndex((p) => p.status === 416);
    expect(mismatch).toBeGreaterThan(0);
    expect(server.patches[mismatch + 1]).toMatchObject({ range: expect.stringMatching(/^10-/), status: 202 });
    expectServerLogComplete(server);
    const text = plain(server.trace.toString());
    expect(text.match(/\nfirst-line\n/g)).toHaveLength(1);
    expect(text.match(/\nsecond-line\n/g)).toHaveLength(1);
  });

  it("stops at once on Job-Status: canceled: kills the script, skips after_script, reports canceled", async () => {
    gitlab.hooks.onPatch = (job, _start, body) => {
      if (body.includes("started")) job.status = "canceled";
      return undefined;
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo started", "sleep 300"], afterScript: ["echo after-ran"] }));
    expect(final).toEqual({ state: "canceled" });
    expect(server.updates.at(-1)).toMatchObject({ state: "canceled" });
    // No log is sent after the patch whose answer said canceled; only the one final update.
    const text = plain(server.trace.toString());
    expect(text).toContain("started");
    expect(text).not.toContain("after-ran");
    expect(text).not.toContain("Job failed");
    expect(server.updates).toHaveLength(1);
  });

  it("on Job-Status: canceling (seen on a keepalive update) kills the script, runs after_script, reports canceled", async () => {
    gitlab.hooks.onUpdate = (job, update) => {
      if (update.state === "running") job.status = "canceling";
      return undefined;
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo started", "sleep 300"], afterScript: ['echo "after: $CI_JOB_STATUS"'] }), {
      keepaliveIntervalMs: 50,
    });
    expect(final).toEqual({ state: "canceled" });
    expect(server.updates[0]).toMatchObject({ state: "running", token: server.payload.token });
    expect(server.updates.at(-1)).toMatchObject({ state: "canceled" });
    const text = plain(server.trace.toString());
    expect(text).toContain("after: canceled");
    expect(text).toContain("ERROR: Job failed: canceled");
    expectServerLogComplete(server);
  });

  it("sends keepalive updates (state running) while the job runs", async () => {
    const flag = path.join(await tempDir("flag"), "kept-alive");
    gitlab.hooks.onUpdate = (_job, update) => {
      if (update.state === "running") writeFileSync(flag, "");
      return undefined;
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: [waitFor(flag)] }), { keepaliveIntervalMs: 50 });
    expect(final.state).toBe("success");
    const keepalive = server.updates.find((u) => u.state === "running")!;
    expect(keepalive).toMatchObject({ token: server.payload.token, checksum: expect.stringMatching(/^crc32:[0-9a-f]+$/) });
  });

  it("retries the final update while the server answers 202 (accepted, not done) or 5xx", async () => {
    const answers = [202, 503];
    gitlab.hooks.onUpdate = (_job, update) => (update.state !== "running" && answers.length ? { status: answers.shift()! } : undefined);
    const { final, server } = await runOnServer(gitlab, jobPayload());
    expect(final.state).toBe("success");
    expect(server.updates.map((u) => u.state)).toEqual(["success", "success", "success"]);
  });

  it("resends the whole log when the final update reports a checksum mismatch (412)", async () => {
    let corrupted = false;
    gitlab.hooks.onUpdate = (job, update) => {
      if (update.state === "running" || corrupted) return undefined;
      corrupted = true;
      job.trace = Buffer.from(job.trace.toString().replace("hello", "HELLO"));
      return { status: 412 };
    };
    const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo hello"] }));
    expect(final.state).toBe("success");
    expect(server.updates).toHaveLength(2);
    expect(server.patches.at(-1)!.range).toMatch(/^0-/);
    expect(plain(server.trace.toString())).toContain("\nhello\n");
    expectServerLogComplete(server);
  });
});
