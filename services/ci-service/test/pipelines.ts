// Pipelines and runners for handler tests, made through the real code paths.
import type { CreateRunnerRequest__Output } from "@quarry/proto/types/ci/v1/CreateRunnerRequest";
import { createRunner } from "../src/ci/create-runner.ts";
import { requestJob } from "../src/ci/request-job.ts";
import type { JobPayload__Output } from "@quarry/proto/types/ci/v1/JobPayload";
import { createPipeline } from "../src/pipelines/create.ts";
import type { TestContext } from "./support.ts";

let nextProjectId = 1000;

/** A project whose default branch holds `yaml` as .gitlab-ci.yml, and a push pipeline for it. */
export async function pipelineFrom(t: TestContext, yaml: string, files: Record<string, string> = {}, options: { refProtected?: boolean } = {}) {
  const { project, sha } = await t.addProject(nextProjectId++, { ".gitlab-ci.yml": yaml, ...files });
  const outcome = await createPipeline(t.deps, {
    project,
    ref: project.defaultBranch,
    tag: false,
    sha,
    source: "push",
    userId: 5,
    refProtected: options.refProtected ?? false,
    variables: [],
    saveOnErrors: true,
  });
  if (!("created" in outcome)) throw new Error(`no pipeline: ${outcome.messages.join()}`);
  return { project, sha, pipeline: outcome.created };
}

/** An instance runner (or as `overrides` say) and its token. */
export async function runner(t: TestContext, overrides: Partial<CreateRunnerRequest__Output> = {}) {
  const created = await createRunner(t.deps)({
    runnerType: "instance_type",
    projectId: 0,
    groupId: 0,
    description: "test runner",
    maintenanceNote: "",
    paused: false,
    locked: false,
    runUntagged: true,
    tagList: [],
    accessLevel: "not_protected",
    maximumTimeout: 0,
    createdByUserId: 1,
    ...overrides,
  });
  return { id: Number(created.runner!.id), token: created.token };
}

/** One job request as a runner makes it (no waiting unless `waitMs`). */
export async function requestAs(t: TestContext, token: string, waitMs = 0, systemId = "s_test"): Promise<JobPayload__Output | null> {
  const res = await requestJob(t.deps)({
    token,
    systemId,
    name: "quarry-runner",
    version: "1.0.0",
    revision: "abc",
    platform: "linux",
    architecture: "amd64",
    executor: "shell",
    ipAddress: "10.0.0.7",
    waitMs,
    externalUrl: "http://quarry.test:8080/",
    lastUpdate: "",
  });
  return (res.job as JobPayload__Output | undefined) ?? null;
}

export const jobsOf = (t: TestContext, pipelineId: number) => t.deps.prisma.job.findMany({ where: { pipelineId }, orderBy: { id: "asc" } });
export const statuses = async (t: TestContext, pipelineId: number) =>
  Object.fromEntries((await jobsOf(t, pipelineId)).filter((j) => !j.retried).map((j) => [j.name, j.status]));

/** The next job a runner gets, as tests use it; fails when there is none. */
export async function takeJob(t: TestContext, token: string) {
  const job = await requestAs(t, token);
  if (!job) throw new Error("no job");
  return { id: Number(job.id), token: job.token, name: job.name, variables: job.variables };
}
