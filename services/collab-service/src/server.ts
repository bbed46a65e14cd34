import type { EventBus } from "@quarry/bus";
import { createClient, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { collabV1, identityV1, type CollabServiceDefinition } from "@quarry/proto";
import { startService } from "@quarry/service";
import type { CollabDeps } from "./deps.ts";
import { subscribeToGroupDeletions } from "./events/group-destroy.ts";
import { subscribeToProjectDeletions } from "./events/project-destroy.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { createIssue } from "./issue/create-issue.ts";
import { deleteIssue } from "./issue/delete-issue.ts";
import { getIssue } from "./issue/get-issue.ts";
import { listIssueResourceEvents } from "./issue/list-issue-resource-events.ts";
import { listIssues } from "./issue/list-issues.ts";
import { updateIssue } from "./issue/update-issue.ts";
import { createLabel } from "./label/create-label.ts";
import { deleteLabel } from "./label/delete-label.ts";
import { getLabel } from "./label/get-label.ts";
import { listLabels } from "./label/list-labels.ts";
import { promoteLabel } from "./label/promote-label.ts";
import { subscribeLabel } from "./label/subscribe-label.ts";
import { unsubscribeLabel } from "./label/unsubscribe-label.ts";
import { updateLabel } from "./label/update-label.ts";
import { createMilestone } from "./milestone/create-milestone.ts";
import { deleteMilestone } from "./milestone/delete-milestone.ts";
import { getMilestone } from "./milestone/get-milestone.ts";
import { listMilestones } from "./milestone/list-milestones.ts";
import { updateMilestone } from "./milestone/update-milestone.ts";

export function collabHandlers(deps: CollabDeps): AsyncHandlers<CollabServiceDefinition> {
  return {
    ListLabels: listLabels(deps),
    GetLabel: getLabel(deps),
    CreateLabel: createLabel(deps),
    UpdateLabel: updateLabel(deps),
    DeleteLabel: deleteLabel(deps),
    SubscribeLabel: subscribeLabel(deps),
    UnsubscribeLabel: unsubscribeLabel(deps),
    PromoteLabel: promoteLabel(deps),
    ListMilestones: listMilestones(deps),
    GetMilestone: getMilestone(deps),
    CreateMilestone: createMilestone(deps),
    UpdateMilestone: updateMilestone(deps),
    DeleteMilestone: deleteMilestone(deps),
    // issues
    CreateIssue: createIssue(deps),
    GetIssue: getIssue(deps),
    UpdateIssue: updateIssue(deps),
    DeleteIssue: deleteIssue(deps),
    ListIssues: listIssues(deps),
    ListIssueResourceEvents: listIssueResourceEvents(deps),

    // notes

    // snippets

    // award emoji
  };
}

export interface CollabServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** identity-service: Authorize and GetGroupAncestors. */
  identityServiceAddress: string;
  /** gRPC deadline towards identity-service, ms. */
  deadlineMs: number;
  /** Project deletions arrive on it (collab-service publishes nothing yet). */
  bus: EventBus;
  log: Logger;
}

export interface RunningCollabService {
  address: string;
  deps: CollabDeps;
  stop(): Promise<void>;
}

/** Starts collab-service on the shared skeleton (packages/service): migrations, Prisma, CollabService, the project- and group-deletion consumers. */
export async function startCollabService(o: CollabServiceOptions): Promise<RunningCollabService> {
  const service = await startService({
    name: "collab-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    migrations,
    PrismaClient,
    deps({ prisma, onStop }): CollabDeps {
      const identity = createClient(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => identity.close());
      return { prisma, identity, log: o.log };
    },
    handlers(server, deps) {
      server.addService("quarry.collab.v1.CollabService", collabV1.CollabService.service, collabHandlers(deps));
    },
    subscribe: async (deps) => [...(await subscribeToProjectDeletions(deps, o.bus)), ...(await subscribeToGroupDeletions(deps, o.bus))],
  });
  return { address: service.address, deps: service.deps, stop: service.stop };
}
