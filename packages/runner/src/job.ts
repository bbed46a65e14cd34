import { mkdir, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { resolveArtifactPaths } from "./artifact-paths.ts";
import { downloadDependencies, uploadArtifacts } from "./artifacts.ts";
import { RUNNER_REVISION, RUNNER_VERSION, type RunnerApi } from "./client.ts";
import { fetchSources, splitRepoUrl } from "./git.ts";
import { style, type RunnerLog } from "./log.ts";
import { Masker } from "./mask.ts";
import { runProcess } from "./process.ts";
import type { ArtifactSpec, FailureReason, JobPayload, JobStep } from "./protocol.ts";
import { section, StageFailure, type TraceWriter } from "./stage.ts";
import { JobTrace, type FinalState, type RemoteStop } from "./trace.ts";
import { expandValue, jobEnvironment, writeVariableFiles } from "./variables.ts";

export interface JobContext {
  api: RunnerApi;
  /** Absolute; the job runs in `<buildsDir>/<job id>`. */
  buildsDir: string;
  baseEnv: Record<string, string>;
  systemId: string;
  log: RunnerLog;
  updateIntervalMs: number;
  keepaliveIntervalMs: number;
  outputLimitBytes: number;
}

/** gitlab-runner's default when the server sends no timeout. */
const DEFAULT_TIMEOUT_S = 7200;
/** gitlab-runner's after_script timeout. */
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60_000;

/** Why the job stopped before its end: its timeout, or the server canceling it gracefully or at once. */
type StopReason = "timeout" | "canceling" | "abort";

interface Failure {
  reason: FailureReason;
  message: string;
  exitCode?: number;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A step as a bash script: `set -eo pipefail`, stderr into stdout (one ordered log), and each
 * command echoed as `$ command` before it runs, as gitlab-runner's bash shell writes it.
 */
export function stepScript(commands: string[]): string {
  const lines = ["exec 2>&1", "set -eo pipefail", "set +o noclobber"];
  for (const command of commands) {
    const [first, ...rest] = command.split("\n");
    const shown = rest.length > 0 ? `${first} # collapsed multi-line command` : command;
    lines.push(`printf '%s\\n' ${shellQuote(style.command(`$ ${shown}`))}`, command);
  }
  return `${lines.join("\n")}\n`;
}

/** Files git reports untracked (ignored ones included, as GitLab's `artifacts:untracked` documents). */
async function untrackedFiles(projectDir: string, env: Record<string, string>): Promise<string[]> {
  let output = "";
  const { exitCode } = await runProcess("git", ["ls-files", "--others", "-z"], {
    cwd: projectDir,
    env,
    onOutput: (text) => (output += text),
  });
  return exitCode === 0 ? output.split("\0").filter((name) => name !== "") : [];
}

/** A stage failing fails the job like a script; anything else is the runner's own failure. */
function failureOf(err: unknown): Failure {
  if (err instanceof StageFailure) return { reason: "script_failure", message: err.message };
  return { reason: "runner_system_failure", message: err instanceof Error ? err.message : String(err) };
}

function artifactWanted(spec: ArtifactSpec, succeeded: boolean): boolean {
  const when = spec.when || "on_success";
  return when === "always" || (succeeded ? when === "on_success" : when === "on_failure");
}

/**
 * Runs one job with the shell executor and reports it: log streamed while it runs, final state
 * at the end. Never throws: whatever goes wrong ends up in the job's log and state.
 */
export async function runJob(job: JobPayload, c: JobContext): Promise<FinalState> {
  const projectDir = path.join(c.buildsDir, String(job.id));
  const tmpDir = `${projectDir}.tmp`;
  const variables = jobEnvironment(job, { baseEnv: c.baseEnv, projectDir, buildsDir: c.buildsDir, tmpDir });
  const { password } = splitRepoUrl(job.git_info.repo_url);
  const masker = new Masker([job.token, ...(password ? [password] : []), ...variables.secrets]);

  let stopReason: StopReason | null = null;
  const jobAbort = new AbortController();
  const hardAbort = new AbortController();
  const stop = (reason: StopReason) => {
    if (reason === "abort") stopReason = "abort";
    else stopReason ??= reason;
    jobAbort.abort();
    if (reason === "abort") hardAbort.abort();
  };
  const trace = new JobTrace({
    api: c.api,
    job,
    masker,
    log: c.log,
    updateIntervalMs: c.updateIntervalMs,
    keepaliveIntervalMs: c.keepaliveIntervalMs,
    outputLimitBytes: c.outputLimitBytes,
    onRemoteStop: (remote: RemoteStop) => stop(remote),
  });
  const timeoutS = job.runner_info?.timeout || DEFAULT_TIMEOUT_S;
  const timer = setTimeout(() => stop("timeout"), timeoutS * 1000);
  trace.start();
  c.log.info({ job: job.id, project: job.job_info?.project_id }, "job started");

  let failure: Failure | null = null;
  let reachedScript = false;
  const env = variables.env;
  const runStep = (step: JobStep, name: string, stepEnv: Record<string, string>, signal: AbortSignal) =>
    runScript(step, name, { projectDir, tmpDir, env: stepEnv, trace, signal });

  try {
    trace.line(`Running with quarry-runner ${RUNNER_VERSION} (${RUNNER_REVISION})`);
    trace.line(`  on ${hostname()}, system ID: ${c.systemId}`);
    await section(trace, "prepare_executor", 'Preparing the "shell" executor', async () => {
      trace.line("Using Shell (bash) executor...");
    });
    await section(trace, "prepare_script", "Preparing environment", async () => {
      trace.line(`Running on ${hostname()}...`);
      await rm(projectDir, { recursive: true, force: true });
      await rm(tmpDir, { recursive: true, force: true });
      await mkdir(projectDir, { recursive: true });
      await mkdir(tmpDir, { recursive: true });
      await writeVariableFiles(variables.files);
    });
    await section(trace, "get_sources", "Getting source from Git repository", async () => {
      const strategy = env.GIT_STRATEGY;
      if (strategy === "none" || strategy === "empty") trace.line(`Skipping Git repository setup (GIT_STRATEGY=${strategy})`);
      else await fetchSources(job.git_info, { dir: projectDir, env, trace, signal: jobAbort.signal });
    });
    if ((job.dependencies ?? []).some((d) => d.artifacts_file?.filename)) {
      await section(trace, "download_artifacts", "Downloading artifacts", () => downloadDependencies(c.api, job, { projectDir, tmpDir, trace }));
    }
    reachedScript = true;
    for (const step of job.steps ?? []) {
      if (step.name === "after_script" || jobAbort.signal.aborted) continue;
      const when = step.when ?? "on_success";
      if (!(when === "always" || (failure ? when === "on_failure" : when === "on_success"))) continue;
      const name = `step_${step.name}`;
      const exitCode = await section(trace, name, `Executing "${name}" stage of the job script`, () =>
        runStep(step, name, { ...env, CI_JOB_STATUS: "running" }, jobAbort.signal),
      );
      if (exitCode !== 0 && !jobAbort.signal.aborted) {
        failure = { reason: "script_failure", message: `exit code ${exitCode}`, exitCode };
      }
    }
  } catch (err) {
    failure = failureOf(err);
  }

  // The stop reason beats whatever the killed process left behind. (Set by callbacks, which
  // TypeScript's narrowing does not see.)
  const stopped = stopReason as StopReason | null;
  if (stopped === "timeout") {
    failure = { reason: "job_execution_timeout", message: `execution took longer than ${timeoutS} seconds` };
  }
  const canceled = stopped === "canceling" || stopped === "abort";
  const afterScript = job.steps?.find((s) => s.name === "after_script");
  if (afterScript && reachedScript && !hardAbort.signal.aborted) {
    const status = canceled ? "canceled" : failure ? "failed" : "success";
    await section(trace, "after_script", "Running after_script", async () => {
      trace.line("Running after script...");
      const signal = AbortSignal.any([hardAbort.signal, AbortSignal.timeout(AFTER_SCRIPT_TIMEOUT_MS)]);
      const exitCode = await runStep(afterScript, "after_script", { ...env, CI_JOB_STATUS: status }, signal);
      if (exitCode !== 0) trace.line(style.warning(`after_script failed, but job will continue unaffected: exit code ${exitCode}`));
    }).catch((err: Error) => trace.line(style.warning(`after_script failed, but job will continue unaffected: ${err.message}`)));
  }
  if (!canceled && !hardAbort.signal.aborted) {
    try {
      const uploaded = await uploadAll(job, c, { projectDir, env, trace, succeeded: !failure });
      if (!uploaded && !failure) failure = { reason: "script_failure", message: "uploading artifacts failed" };
    } catch (err) {
      failure ??= failureOf(err);
    }
  }
  clearTimeout(timer);

  await section(trace, "cleanup_file_variables", "Cleaning up project directory and file based variables", async () => {
    await rm(projectDir, { recursive: true, force: true });
    await rm(tmpDir, { recursive: true, force: true });
  }).catch((err) => c.log.warn({ err, job: job.id }, "cleaning up the build directory failed"));

  const final: FinalState = canceled
    ? { state: "canceled" }
    : failure
      ? { state: "failed", failureReason: failure.reason, ...(failure.exitCode !== undefined ? { exitCode: failure.exitCode } : {}) }
      : { state: "success" };
  if (canceled) trace.line(style.error("Job failed: canceled"));
  else if (failure?.reason === "runner_system_failure") trace.line(style.error(`Job failed (system failure): ${failure.message}`));
  else if (failure) trace.line(style.error(`Job failed: ${failure.message}`));
  else trace.line(style.success("Job succeeded"));
  await trace.finish(final);
  c.log.info({ job: job.id, state: final.state, failureReason: final.failureReason }, "job finished");
  return final;
}

async function runScript(
  step: JobStep,
  name: string,
  o: { projectDir: string; tmpDir: string; env: Record<string, string>; trace: TraceWriter; signal: AbortSignal },
): Promise<number> {
  const file = path.join(o.tmpDir, `${name}.sh`);
  await writeFile(file, stepScript(step.script ?? []), { mode: 0o700 });
  const { exitCode } = await runProcess("bash", ["--noprofile", "--norc", file], {
    cwd: o.projectDir,
    env: o.env,
    onOutput: (text) => o.trace.write(text),
    signal: o.signal,
  });
  return exitCode;
}

/** Uploads the artifacts the job's outcome calls for; false when an upload failed. */
async function uploadAll(
  job: JobPayload,
  c: JobContext,
  o: { projectDir: string; env: Record<string, string>; trace: JobTrace; succeeded: boolean },
): Promise<boolean> {
  const specs = (job.artifacts ?? []).filter((spec) => artifactWanted(spec, o.succeeded));
  if (specs.length === 0) return true;
  const [name, header] = o.succeeded
    ? ["upload_artifacts_on_success", "Uploading artifacts for successful job"]
    : ["upload_artifacts_on_failure", "Uploading artifacts for failed job"];
  return section(o.trace, name, header, async () => {
    let ok = true;
    for (const spec of specs) {
      o.trace.line("Uploading artifacts...");
      // Paths may name variables ($CI_PROJECT_DIR/out), as with gitlab-runner's uploader.
      const expand = (p: string) => expandValue(p, (variable) => o.env[variable]);
      const entries = await resolveArtifactPaths(o.projectDir, {
        paths: (spec.paths ?? []).map(expand),
        exclude: (spec.exclude ?? []).map(expand),
        untracked: spec.untracked ? await untrackedFiles(o.projectDir, o.env) : [],
        trace: o.trace,
      });
      if (entries.length === 0) {
        o.trace.line(style.warning("No files to upload"));
        continue;
      }
      const named = { ...spec, name: spec.name ? expand(spec.name) : spec.name };
      if (!(await uploadArtifacts(c.api, job, named, entries, { trace: o.trace, retryDelayMs: c.updateIntervalMs }))) ok = false;
    }
    return ok;
  });
}
