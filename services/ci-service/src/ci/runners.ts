// Shared pieces of the runner RPCs: tokens (GitLab's `glrt-` format, stored as SHA-256 digests)
// and the wire form of a runner row.
import { randomBytes } from "node:crypto";
import { forbidden } from "@quarry/grpc";
import type { Runner__Output as RunnerMessage } from "@quarry/proto/types/ci/v1/Runner";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";
import type { Runner } from "../generated/prisma/client.ts";

export const RUNNER_TYPES = ["instance_type", "group_type", "project_type"] as const;
export const RUNNER_ACCESS_LEVELS = ["not_protected", "ref_protected"] as const;

/** A new runner authentication token in GitLab's format. */
export function newRunnerToken(): string {
  return `glrt-${randomBytes(20).toString("base64url")}`;
}

/** The runner a token belongs to, or GitLab's bare 403 (the runner API never says more). */
export async function runnerForToken(deps: CiDeps, token: string): Promise<Runner> {
  const runner = token ? await deps.prisma.runner.findUnique({ where: { tokenDigest: tokenDigest(token) } }) : null;
  if (!runner) throw forbidden();
  return runner;
}

export function toRunnerMessage(r: Runner): RunnerMessage {
  return {
    id: r.id,
    runnerType: r.runnerType,
    projectId: r.projectId ?? 0,
    groupId: r.groupId ?? 0,
    description: r.description,
    paused: r.paused,
    locked: r.locked,
    runUntagged: r.runUntagged,
    tagList: r.tagList,
    accessLevel: r.accessLevel,
    maximumTimeout: r.maximumTimeout ?? 0,
    maintenanceNote: r.maintenanceNote,
    createdAt: r.createdAt.toISOString(),
    contactedAt: r.contactedAt?.toISOString() ?? "",
  };
}
