import { applicationSettingsFromIdentity } from "@quarry/application-settings";
import type { EventBus } from "@quarry/bus";
import { createClient, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { collabV1, identityV1, repoV1, type CollabServiceDefinition } from "@quarry/proto";
import { startService } from "@quarry/service";
import { createAwardEmoji } from "./award-emoji/create-award-emoji.ts";
import { deleteAwardEmoji } from "./award-emoji/delete-award-emoji.ts";
import { getAwardEmoji } from "./award-emoji/get-award-emoji.ts";
import { listAwardEmoji } from "./award-emoji/list-award-emoji.ts";
import type { CollabDeps } from "./deps.ts";
import { subscribeToUserContributions } from "./events/user-contributions.ts";
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
import { createMergeRequest } from "./merge-request/create-merge-request.ts";
import { deleteMergeRequest } from "./merge-request/delete-merge-request.ts";
import { getMergeRequest } from "./merge-request/get-merge-request.ts";
import { getMergeRequestVersion } from "./merge-request/get-merge-request-version.ts";
import { listCommitMergeRequests } from "./merge-request/list-commit-merge-requests.ts";
import { listMergeRequestIssues } from "./merge-request/list-merge-request-issues.ts";
import { type IssueDueScheduler, type IssueDueSchedulerOptions, startIssueDueScheduler } from "./notification/issue-due.ts";
import { listNoteableParticipants } from "./notification/list-noteable-participants.ts";
import { listMergeRequestParticipants } from "./merge-request/list-merge-request-participants.ts";
import { listMergeRequestVersions } from "./merge-request/list-merge-request-versions.ts";
import { subscribeToPushes } from "./merge-request/refresh.ts";
import { updateMergeRequest } from "./merge-request/update-merge-request.ts";
import { createLabel } from "./label/create-label.ts";
import { deleteLabel } from "./label/delete-label.ts";
import { getLabel } from "./label/get-label.ts";
import { listLabels } from "./label/list-labels.ts";
import { promoteLabel } from "./label/promote-label.ts";
import { subscribeLabel } from "./label/subscribe-label.ts";
import { unsubscribeLabel } from "./label/unsubscribe-label.ts";
import { updateLabel } from "./label/update-label.ts";
import { createMergeRequestContextCommits } from "./merge-request/context-commits-create.ts";
import { deleteMergeRequestContextCommits } from "./merge-request/context-commits-delete.ts";
import { listMergeRequestContextCommits } from "./merge-request/context-commits-list.ts";
import { listMergeRequests } from "./merge-request/list-merge-requests.ts";
import { cancelAutoMerge, processAutoMerges } from "./merge-request/auto-merge.ts";
import { mergeMergeRequest } from "./merge-request/merge-merge-request.ts";
import { subscribeToPipelines } from "./merge-request/pipelines.ts";
import { rebaseMergeRequest } from "./merge-request/rebase-merge-request.ts";
import { createMilestone } from "./milestone/create-milestone.ts";
import { deleteMilestone } from "./milestone/delete-milestone.ts";
import { getMilestone } from "./milestone/get-milestone.ts";
import { listMilestones } from "./milestone/list-milestones.ts";
import { updateMilestone } from "./milestone/update-milestone.ts";
import { createNote } from "./note/create-note.ts";
import { deleteNote } from "./note/delete-note.ts";
import { getNote } from "./note/get-note.ts";
import { listNotes } from "./note/list-notes.ts";
import { updateNote } from "./note/update-note.ts";
import { createSnippet } from "./snippet/create-snippet.ts";
import { deleteSnippet } from "./snippet/delete-snippet.ts";
import { getSnippet } from "./snippet/get-snippet.ts";
import { listSnippets } from "./snippet/list-snippets.ts";
import { readSnippetRaw } from "./snippet/read-snippet-raw.ts";
import { updateSnippet } from "./snippet/update-snippet.ts";
import { approveMergeRequest } from "./merge-request/approve-merge-request.ts";
import { getMergeRequestApprovals } from "./merge-request/get-merge-request-approvals.ts";
import { unapproveMergeRequest } from "./merge-request/unapprove-merge-request.ts";

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
    ListNotes: listNotes(deps),
    GetNote: getNote(deps),
    CreateNote: createNote(deps),
    UpdateNote: updateNote(deps),
    DeleteNote: deleteNote(deps),

    // snippets
    ListSnippets: listSnippets(deps),
    GetSnippet: getSnippet(deps),
    CreateSnippet: createSnippet(deps),
    UpdateSnippet: updateSnippet(deps),
    DeleteSnippet: deleteSnippet(deps),
    ReadSnippetRaw: readSnippetRaw(deps),

    // award emoji
    ListAwardEmoji: listAwardEmoji(deps),
    GetAwardEmoji: getAwardEmoji(deps),
    CreateAwardEmoji: createAwardEmoji(deps),
    DeleteAwardEmoji: deleteAwardEmoji(deps),

    // merge requests
    CreateMergeRequest: createMergeRequest(deps),
    GetMergeRequest: getMergeRequest(deps),
    UpdateMergeRequest: updateMergeRequest(deps),
    DeleteMergeRequest: deleteMergeRequest(deps),
    ListMergeRequestVersions: listMergeRequestVersions(deps),
    GetMergeRequestVersion: getMergeRequestVersion(deps),
    ListMergeRequestParticipants: listMergeRequestParticipants(deps),
    ListMergeRequestIssues: listMergeRequestIssues(deps),
    ListCommitMergeRequests: listCommitMergeRequests(deps),

    // merge request listing
    ListMergeRequests: listMergeRequests(deps),

    // merge request merging and approvals
    MergeMergeRequest: mergeMergeRequest(deps),
    RebaseMergeRequest: rebaseMergeRequest(deps),
    CancelAutoMerge: cancelAutoMerge(deps),
    ApproveMergeRequest: approveMergeRequest(deps),
    UnapproveMergeRequest: unapproveMergeRequest(deps),
    GetMergeRequestApprovals: getMergeRequestApprovals(deps),

    // merge request context commits
    ListMergeRequestContextCommits: listMergeRequestContextCommits(deps),
    CreateMergeRequestContextCommits: createMergeRequestContextCommits(deps),
    DeleteMergeRequestContextCommits: deleteMergeRequestContextCommits(deps),
    ListNoteableParticipants: listNoteableParticipants(deps),
  };
}

export interface CollabServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** identity-service: Authorize and GetGroupAncestors. */
  identityServiceAddress: string;
  /** repo-service: snippet repositories. */
  repoServiceAddress: string;
  /** gRPC deadline towards identity-service, ms. */
  deadlineMs: number;
  /** Project and group deletions arrive on it; the outbox relay publishes collab's events (award emoji) to it. */
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** Pins the notes one user may create per minute (0 = unlimited); unset: the notes_create_limit application setting (300 by default). */
  notesCreateLimit?: number;
  /** The issue_due scheduler: its clock and interval (tests); `false` = not started. */
  issueDue?: IssueDueSchedulerOptions | false;
}

export interface RunningCollabService {
  address: string;
  deps: CollabDeps;
  /** The issue_due scheduler (undefined when disabled). */
  issueDue?: IssueDueScheduler;
  stop(): Promise<void>;
}

/** Starts collab-service on the shared skeleton (packages/service): migrations, Prisma, CollabService, the project- and group-deletion consumers, the outbox relay. */
export async function startCollabService(o: CollabServiceOptions): Promise<RunningCollabService> {
  let issueDue: IssueDueScheduler | undefined;
  const service = await startService({
    name: "collab-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma, outbox, onStop }): CollabDeps {
      const identity = createClient(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => identity.close());
      const repo = createClient(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => repo.close());
      const settings = applicationSettingsFromIdentity({ service: "collab-service", identity, bus: o.bus, log: o.log });
      return { prisma, identity, repo, outbox: outbox(), log: o.log, notesCreateLimit: o.notesCreateLimit, settings };
    },
    handlers(server, deps) {
      server.addService("quarry.collab.v1.CollabService", collabV1.CollabService.service, collabHandlers(deps));
    },
    subscribe: async (deps) => [
      // The instance settings (notes_create_limit) follow PUT /application/settings.
      await deps.settings.start(),
      ...(await subscribeToProjectDeletions(deps, o.bus)),
      ...(await subscribeToGroupDeletions(deps, o.bus)),
      // Deleted users: their contributions move to the Ghost User (or go, with hard_delete).
      ...(await subscribeToUserContributions(deps, o.bus)),
      // merge requests: pushes refresh their diff versions
      ...(await subscribeToPushes(deps, o.bus)),
      // Head pipelines of merge requests; a succeeded one carries out the auto-merges waiting on it.
      ...(await subscribeToPipelines(deps, o.bus, (pipeline) => processAutoMerges(deps, pipeline))),
    ],
    workers(deps) {
      if (o.issueDue === false) return [];
      issueDue = startIssueDueScheduler(deps, o.issueDue);
      return [issueDue];
    },
  });
  return { address: service.address, deps: service.deps, issueDue, stop: service.stop };
}
