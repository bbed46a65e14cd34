import { execFile, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { jobPayload } from "./fake-gitlab.ts";
import { tempDir, useFakeGitLab } from "./helpers.ts";

const packageDir = path.resolve(import.meta.dirname, "..");
const cli = path.join(packageDir, "dist", "cli.js");

beforeAll(() => {
  // The real bin: the tsup bundle, as `pnpm build` makes it.
  execFileSync("npx", ["tsup", "--silent"], { cwd: packageDir, stdio: "ignore" });
});
const gitlab = useFakeGitLab();

/** Runs the CLI with only the given environment (plus PATH). */
function quarryRunner(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(cli, args, { env: { PATH: process.env.PATH!, ...env } }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout + err.stderr }),
  );
}

describe("quarry-runner command", () => {
  it("verify exits 0 for a valid token and 1 for an invalid one", async () => {
    expect(await quarryRunner(["verify", "--url", gitlab.url, "--token", gitlab.runnerToken])).toMatchObject({ code: 0 });
    expect(await quarryRunner(["verify", "--url", gitlab.url, "--token", "glrt-wrong"])).toMatchObject({ code: 1 });
  });

  it("takes the URL and token from the environment, flags overriding it", async () => {
    const env = { QUARRY_RUNNER_URL: gitlab.url, QUARRY_RUNNER_TOKEN: gitlab.runnerToken };
    expect(await quarryRunner(["verify"], env)).toMatchObject({ code: 0 });
    expect(await quarryRunner(["verify", "--token", "glrt-wrong"], env)).toMatchObject({ code: 1 });
  });

  it("refuses to start without URL and token, and on an unknown command", async () => {
    expect(await quarryRunner(["run"])).toMatchObject({ code: 2, stdout: expect.stringContaining("required") });
    expect(await quarryRunner(["frobnicate"])).toMatchObject({ code: 2, stdout: expect.stringContaining("Usage") });
  });

  it("run executes jobs and exits 0 after SIGTERM once they are done", async () => {
    const buildsDir = await tempDir("cli-builds");
    const payload = jobPayload({ script: ["echo ran-by-the-cli"] });
    const done = gitlab.finished(payload.id);
    gitlab.enqueue(payload);
    const child = spawn(cli, ["run", "--url", gitlab.url, "--token", gitlab.runnerToken], {
      env: { PATH: process.env.PATH!, QUARRY_RUNNER_BUILDS_DIR: buildsDir, LOG_LEVEL: "silent" },
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const job = await done;
    expect(job.trace.toString()).toContain("ran-by-the-cli");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
