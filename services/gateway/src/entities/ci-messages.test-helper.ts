// CI messages as ci-service sends them, for the entity tests.
import type { Job__Output as Job } from "@quarry/proto/types/ci/v1/Job";
import type { Pipeline__Output as Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { CiUrls } from "./pipeline.ts";

export const urls: CiUrls = { base: "http://q.example", projectId: 3, projectPath: "group/app" };

export function pipelineMessage(over: Partial<Pipeline> = {}): Pipeline {
  return {
    id: 41,
    iid: 7,
    projectId: 3,
    ref: "main",
    tag: false,
    sha: "a".repeat(40),
    beforeSha: "0".repeat(40),
    source: "push",
    status: "success",
    yamlErrors: "",
    userId: 1,
    createdAt: "2026-01-01T10:00:00.000Z",
    updatedAt: "2026-01-01T10:05:00.000Z",
    startedAt: "2026-01-01T10:00:06.400Z",
    finishedAt: "2026-01-01T10:04:00.000Z",
    committedAt: "2026-01-01T09:00:00.000Z",
    duration: 233.6,
    queuedDuration: 6.4,
    coverage: 85.25,
    warnings: false,
    parentPipelineId: 0,
    projectPath: "group/old-name",
    name: "",
    ...over,
  } as Pipeline;
}

export const root = { id: 1, username: "root", name: "Administrator", state: "active" } as User;

export function jobMessage(over: Partial<Job> = {}): Job {
  return {
    id: 88,
    name: "rspec",
    stage: "test",
    status: "failed",
    failureReason: "script_failure",
    ref: "main",
    tag: false,
    coverage: undefined,
    allowFailure: false,
    createdAt: "2026-01-01T10:00:00.000Z",
    startedAt: "2026-01-01T10:00:02.000Z",
    finishedAt: "2026-01-01T10:00:03.250Z",
    erasedAt: "",
    duration: 1.25,
    queuedDuration: 0.5,
    artifactsExpireAt: "2026-02-01T10:00:03.250Z",
    artifacts: [
      { fileType: "archive", size: 1000, filename: "artifacts.zip", fileFormat: "zip" },
      { fileType: "trace", size: 1500, filename: "job.log", fileFormat: "raw" },
    ],
    tagList: ["ubuntu", "docker"],
    userId: 1,
    pipeline: pipelineMessage({ status: "failed" }),
    runner: {
      id: 5,
      description: "shared",
      ipAddress: "",
      active: true,
      paused: false,
      isShared: true,
      runnerType: "instance_type",
      name: "",
      online: false,
      status: "offline",
    },
    runnerManager: {
      id: 9,
      systemId: "s_0123456789ab",
      version: "17.0.0",
      revision: "abcdef12",
      platform: "linux",
      architecture: "amd64",
      createdAt: "2026-01-01T09:00:00.000Z",
      contactedAt: "2026-01-01T10:00:03.000Z",
      ipAddress: "",
      status: "online",
    },
    type: "build",
    downstreamPipeline: null,
    retried: false,
    when: "on_success",
    projectId: 3,
    ciJobTokenScopeEnabled: true,
    commitTitle: "Add CI",
    commitMessage: "Add CI\n\nWith a job.",
    commitAuthorName: "Ann",
    commitAuthorEmail: "ann@example.com",
    source: "push",
    playable: false,
    retryable: true,
    archived: false,
    ...over,
  } as Job;
}

export const rootProfile = {
  ...root,
  createdAt: "2025-01-01T00:00:00.000Z",
  bio: "",
  location: "",
  publicEmail: "",
  websiteUrl: "",
  organization: "",
  jobTitle: "",
  pronouns: "",
  bot: false,
} as User;
