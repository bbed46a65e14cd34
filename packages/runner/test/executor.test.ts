import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { jobPayload } from "./fake-gitlab.ts";
import { plain, runOnServer, tempDir, useFakeGitLab } from "./helpers.ts";

const gitlab = useFakeGitLab();

/** Whether a process still runs (a zombie waiting for init to reap it has stopped running). */
const isRunning = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
};
/** A SIGKILL lands asynchronously; wait for it. */
const expectKilled = (pid: number) => vi.waitFor(async () => expect(await isRunning(pid)).toBe(false), { timeout: 5000 });

describe("shell executor", () => {
  it("runs the script in bash in the build directory, echoing each command, and reports success", async () => {
    const { final, server, log, buildsDir } = await runOnServer(gitlab, jobPayload({ id: 101, script: ["echo hello", "pwd", "echo to-stderr >&2"] }));
    expect(final).toEqual({ state: "success" });
    const text = plain(log);
    expect(text).toContain("Running with quarry-runner");
    expect(text).toContain("$ echo hello\nhello\n");
    expect(text).toContain(`$ pwd\n${path.join(buildsDir, "101")}\n`);
    expect(text).toContain("to-stderr\n");
    expect(text.trimEnd().endsWith("Job succeeded")).toBe(true);
    const last = server.updates.at(-1)!;
    expect(last).toMatchObject({ state: "success", token: server.payload.token, output: { bytesize: server.trace.length } });
    // The build directory is removed afterwards.
    await expect(stat(path.join(buildsDir, "101"))).rejects.toThrow();
  });

  it("fails with script_failure and the exit code at the first failing command", async () => {
    const { final, server, log } = await runOnServer(gitlab, jobPayload({ script: ["echo before", "(exit 3)", "echo after"] }));
    expect(final).toEqual({ state: "failed", failureReason: "script_failure", exitCode: 3 });
    expect(server.updates.at(-1)).toMatchObject({ state: "failed", failure_reason: "script_failure", exit_code: 3 });
    const text = plain(log);
    expect(text).toContain("before");
    expect(text).not.toContain("\nafter\n");
    expect(text).toContain("ERROR: Job failed: exit code 3");
  });

  it("fails on a failing command inside a pipeline (pipefail)", async () => {
    const { final } = await runOnServer(gitlab, jobPayload({ script: ["false | cat"] }));
    expect(final).toMatchObject({ state: "failed", exitCode: 1 });
  });

  it("exports every variable, expands references, and writes file variables to files", async () => {
    const { final, log } = await runOnServer(
      gitlab,
      jobPayload({
        script: [
          'echo "greeting=$GREETING"',
          'echo "dir=$IN_DIR"',
          'echo "raw=$RAW"',
          'echo "file=$(cat "$CONFIG_FILE")"',
          "bash -c 'echo \"child=$GREETING\"'",
        ],
        variables: [
          { key: "GIT_STRATEGY", value: "none" },
          { key: "NAME", value: "world" },
          { key: "GREETING", value: "hello $NAME" },
          { key: "IN_DIR", value: "${CI_PROJECT_DIR}/out" },
          { key: "RAW", value: "keep $NAME", raw: true },
          { key: "CONFIG_FILE", value: "line from a file", file: true },
        ],
      }),
    );
    expect(final.state).toBe("success");
    const text = plain(log);
    expect(text).toContain("\ngreeting=hello world\n");
    expect(text).toMatch(/\ndir=\/.+\/\d+\/out\n/);
    expect(text).toContain("\nraw=keep $NAME\n");
    expect(text).toContain("\nfile=line from a file\n");
    expect(text).toContain("\nchild=hello world\n");
  });

  it("does not hand the runner's own environment to jobs beyond the whitelist", async () => {
    process.env.QUARRY_RUNNER_TOKEN_FOR_TEST = "runner-secret";
    try {
      const { log } = await runOnServer(gitlab, jobPayload({ script: ['echo "token=${QUARRY_RUNNER_TOKEN_FOR_TEST:-unset} path=${PATH:+set}"'] }));
      expect(plain(log)).toContain("token=unset path=set");
    } finally {
      delete process.env.QUARRY_RUNNER_TOKEN_FOR_TEST;
    }
  });

  it("masks masked variables and the job token in the log, also when split across writes", async () => {
    const secret = "s3cr3t-value-123";
    const { log, server } = await runOnServer(
      gitlab,
      jobPayload({
        script: [
          'echo "plain: $SECRET"',
          // The secret leaves bash in two writes.
          'printf "split: s3cr3t-"; sleep 0.2; printf "value-123 end\\n"',
          'echo "token: $CI_JOB_TOKEN"',
        ],
        variables: [
          { key: "GIT_STRATEGY", value: "none" },
          { key: "SECRET", value: secret, masked: true },
          { key: "CI_JOB_TOKEN", value: "will be the job token", masked: true },
        ],
      }),
    );
    expect(log).not.toContain(secret);
    expect(log).not.toContain(server.payload.token);
    const text = plain(log);
    expect(text).toContain("plain: [MASKED]");
    expect(text).toContain("split: [MASKED] end");
    expect(text).toContain("token: [MASKED]");
  });

  it("runs after_script after a failure, with CI_JOB_STATUS, without changing the outcome", async () => {
    const { final, log } = await runOnServer(gitlab, jobPayload({ script: ["exit 7"], afterScript: ['echo "after: $CI_JOB_STATUS"', "exit 1"] }));
    expect(final).toEqual({ state: "failed", failureReason: "script_failure", exitCode: 7 });
    const text = plain(log);
    expect(text).toContain("Running after script...");
    expect(text).toContain("after: failed");
    expect(text).toContain("WARNING: after_script failed, but job will continue unaffected: exit code 1");
  });

  it("a failing after_script does not fail a successful job", async () => {
    const { final, log } = await runOnServer(gitlab, jobPayload({ script: ["true"], afterScript: ['echo "after: $CI_JOB_STATUS"; false'] }));
    expect(final).toEqual({ state: "success" });
    expect(plain(log)).toContain("after: success");
  });

  it("on timeout kills the whole process group, runs after_script and fails with job_execution_timeout", async () => {
    const dir = await tempDir("timeout");
    const pidFile = path.join(dir, "background.pid");
    const { final, log } = await runOnServer(
      gitlab,
      jobPayload({
        runner_info: { timeout: 1 },
        script: [`sleep 300 & echo $! > ${pidFile}`, "sleep 300"],
        afterScript: ['echo "after: $CI_JOB_STATUS"'],
      }),
    );
    expect(final).toEqual({ state: "failed", failureReason: "job_execution_timeout" });
    const text = plain(log);
    expect(text).toContain("ERROR: Job failed: execution took longer than 1 seconds");
    expect(text).toContain("after: failed");
    await expectKilled(Number(await readFile(pidFile, "utf8")));
  });

  it("kills processes a successful script left running in the background", async () => {
    const dir = await tempDir("leftover");
    const pidFile = path.join(dir, "leftover.pid");
    const { final } = await runOnServer(gitlab, jobPayload({ script: [`sleep 300 >/dev/null & echo $! > ${pidFile}`] }));
    expect(final.state).toBe("success");
    await expectKilled(Number(await readFile(pidFile, "utf8")));
  });

  it("skips on_success steps after a failure and runs on_failure ones", async () => {
    const payload = jobPayload({ script: ["exit 2"] });
    payload.steps!.push(
      { name: "release", script: ["echo release-ran"], when: "on_success" },
      { name: "notify", script: ["echo notify-ran"], when: "on_failure" },
    );
    const { log } = await runOnServer(gitlab, payload);
    expect(plain(log)).not.toContain("release-ran");
    expect(plain(log)).toContain('Executing "step_notify" stage of the job script');
    expect(plain(log)).toContain("\nnotify-ran\n");
  });

  it("still reports the job when the script removed the directories the runner needs afterwards", async () => {
    const withoutTmp = await runOnServer(gitlab, jobPayload({ script: ['rm -rf "$CI_PROJECT_DIR.tmp"'], afterScript: ["echo after"] }));
    expect(withoutTmp.final).toEqual({ state: "success" });
    expect(plain(withoutTmp.log)).toMatch(/WARNING: after_script failed, but job will continue unaffected: ENOENT/);

    const withoutProject = await runOnServer(
      gitlab,
      jobPayload({ script: ['cd .. && rm -rf "$CI_PROJECT_DIR"'], artifacts: [{ paths: ["out.txt"], when: "on_success" }] }),
    );
    expect(withoutProject.final).toEqual({ state: "failed", failureReason: "runner_system_failure" });
    expect(withoutProject.server.updates.at(-1)).toMatchObject({ state: "failed", failure_reason: "runner_system_failure" });
    expect(plain(withoutProject.log)).toContain("ERROR: Job failed (system failure): ENOENT");
  });

  it("stops collecting output at the log limit and says so", async () => {
    const { final, log } = await runOnServer(gitlab, jobPayload({ script: ["head -c 5000 /dev/zero | tr '\\0' x", "echo done-marker"] }), {
      outputLimitBytes: 2000,
    });
    expect(final.state).toBe("success");
    expect(log).toContain("Job's log exceeded limit of 2000 bytes.");
    expect(log).not.toContain("done-marker");
    expect(Buffer.byteLength(log)).toBeLessThan(2300);
  });
});
