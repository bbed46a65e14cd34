import { badRequest, conflict, isNotFound } from "@quarry/grpc";
import type { CreateMergeRequestRequest__Output } from "@quarry/proto/types/collab/v1/CreateMergeRequestRequest";
import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import { allowedMilestoneId, canSetMetadata, findOrCreateLabels, readableAssignees } from "../issue/rules.ts";
import { recordNotFound, requireCreateMergeRequest, resolveMergeRequestScope } from "./access.ts";
import { branchHead, collectDiff, recordDiff, writeHeadRef } from "./diff-version.ts";
import { loadMergeRequestMessage } from "./entity.ts";
import { enqueueMergeRequestEvent, lastCommitHookAttrs } from "./event.ts";
import { recordMergeRequestNotes } from "./system-notes.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { DESCRIPTION_MAX, descriptionTooLong, isDraftTitle, mergeRequestReference, sameBranchRefusal, unprocessable } from "./rules.ts";
import { writeLabelEvents, writeMilestoneEvent } from "../issuable/resource-events.ts";

/**
 * GitLab's POST /projects/:id/merge_requests (MergeRequests::CreateService): the caller must be
 * able to push to the project; both branches must exist and differ (422); one open merge request
 * per source/target pair (409). The iid comes from the project's counter (row-locked, so concurrent
 * creations never share one); the first diff version, labels, assignees, reviewers, the open
 * event and refs/merge-requests/:iid/head are written in one transaction.
 */
export const createMergeRequest =
  (deps: CollabDeps) =>
  async (req: CreateMergeRequestRequest__Output): Promise<MergeRequest> => {
    const scope = await resolveMergeRequestScope(deps, req.actor, req.project);
    const { parent, project } = scope;
    requireCreateMergeRequest(scope);
    const targetProjectId = Number(req.targetProjectId);
    if (targetProjectId && targetProjectId !== parent.id) {
      // set_projects!: Project.find, then MergeRequest#validate_fork (Quarry has no forks).
      const a = req.actor ?? { userId: 0, isAdmin: false, system: "" };
      const visible = await deps.identity.Authorize({ actor: a, action: "read_project", project: String(targetProjectId) }).then(
        () => true,
        (err) => {
          if (isNotFound(err)) return false;
          throw err;
        },
      );
      if (!visible) throw recordNotFound();
      throw unprocessable("Source project is not a fork of the target project");
    }
    const title = req.title.trim();
    if (!title) throw badRequest({ title: ["can't be blank"] });
    if (title.length > 255) throw badRequest({ title: ["is too long (maximum is 255 characters)"] });
    if (descriptionTooLong(req.description)) throw badRequest({ description: [`is too long (maximum is ${DESCRIPTION_MAX} characters)`] });
    const sourceBranch = req.sourceBranch;
    const targetBranch = req.targetBranch;
    if (sourceBranch === targetBranch) throw sameBranchRefusal();
    const [sourceSha, targetSha] = await Promise.all([branchHead(deps, project, sourceBranch), branchHead(deps, project, targetBranch)]);
    const missing: Record<string, string[]> = {};
    if (!sourceSha) missing.source_branch = ["does not exist"];
    if (!targetSha) missing.target_branch = ["does not exist"];
    if (Object.keys(missing).length) throw badRequest(missing);
    const diff = await collectDiff(deps, project, sourceSha!, targetSha!);
    const meta = canSetMetadata(parent);
    const assignees = meta ? await readableAssignees(deps, parent, req.assigneeIds.map(Number)) : [];
    const reviewers = meta ? await readableAssignees(deps, parent, req.reviewerIds.map(Number)) : [];
    const actorId = parent.userId;
    const usernames = await usernamesOf(deps, [...assignees, ...reviewers]);
    const lastCommit = await lastCommitHookAttrs(deps, scope, diff.headCommitSha);

    const created = await deps.prisma.$transaction(async (tx) => {
      // Serializes creations for the project: the duplicate check below cannot race.
      const counter = await tx.$queryRaw<{ last_iid: number }[]>`
        INSERT INTO merge_request_iids (project_id, last_iid) VALUES (${parent.id}, 1)
        ON CONFLICT (project_id) DO UPDATE SET last_iid = merge_request_iids.last_iid + 1
        RETURNING last_iid`;
      const iid = Number(counter[0]!.last_iid);
      const other = await tx.mergeRequest.findFirst({ where: { projectId: parent.id, sourceBranch, targetBranch, state: "opened" }, orderBy: { id: "asc" } });
      if (other) throw conflict([`Another open merge request already exists for this source branch: ${mergeRequestReference(other.iid)}`]);
      const labels = meta ? await findOrCreateLabels(tx, parent, req.labels) : [];
      const milestoneId = meta ? await allowedMilestoneId(tx, parent, Number(req.milestoneId)) : null;
      const now = new Date();
      const mr = await tx.mergeRequest.create({
        data: {
          projectId: parent.id,
          sourceProjectId: parent.id,
          iid,
          title,
          description: req.description ?? null,
          sourceBranch,
          targetBranch,
          draft: isDraftTitle(title),
          authorId: actorId,
          milestoneId,
          squash: req.squash ?? false,
          forceRemoveSourceBranch: req.removeSourceBranch ?? false,
          allowCollaboration: req.allowCollaboration ?? false,
          headSha: diff.headCommitSha,
          preparedAt: now,
          createdAt: now,
          updatedAt: now,
          // Distinct timestamps keep the order they were given in.
          assignees: { create: assignees.map((userId, i) => ({ userId, createdAt: new Date(now.getTime() + i) })) },
          reviewers: { create: reviewers.map((userId, i) => ({ userId, createdAt: new Date(now.getTime() + i) })) },
          labels: { create: labels.map((l) => ({ labelId: l.id })) },
        },
      });
      await recordDiff(tx, mr.id, diff);
      await writeLabelEvents(
        tx,
        { mergeRequestId: mr.id },
        actorId,
        labels.map((l) => l.id),
        [],
        now,
      );
      if (milestoneId !== null) await writeMilestoneEvent(tx, { mergeRequestId: mr.id }, { from: null, to: milestoneId }, "opened", actorId, now);
      await recordMergeRequestNotes(tx, {
        mr,
        before: null,
        after: { title, description: mr.description, discussionLocked: null, targetBranch, assigneeIds: assignees, reviewerIds: reviewers },
        authorId: actorId,
        usernames,
      });
      await enqueueMergeRequestEvent(tx, { mergeRequestId: mr.id, scope, action: "open", before: null, actorUserId: actorId, usernames, lastCommit });
      // Before the commit: the ref exists when the event goes out (merge request pipelines use it).
      await writeHeadRef(deps, project, iid, diff.headCommitSha);
      return mr;
    });
    publishSoon(deps);
    return loadMergeRequestMessage(deps, scope, created.id);
  };
