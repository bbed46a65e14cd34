import { badRequest, conflict, forbidden } from "@quarry/grpc";
import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { UpdateMergeRequestRequest__Output } from "@quarry/proto/types/collab/v1/UpdateMergeRequestRequest";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { allowedMilestoneId, findLabels, findOrCreateLabels, readableAssignees } from "../issue/rules.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { canAdminMergeRequest, canUpdateMergeRequest, findVisibleMergeRequest } from "./access.ts";
import { branchHead, collectDiff, recordDiff, writeHeadRef, type CollectedDiff } from "./diff-version.ts";
import { loadMergeRequestMessage } from "./entity.ts";
import { enqueueMergeRequestEvent, lastCommitHookAttrs, mergeRequestSnapshot } from "./event.ts";
import { DESCRIPTION_MAX, descriptionTooLong, isDraftTitle, mergeRequestReference, sameBranchRefusal } from "./rules.ts";
import { recordMergeRequestNotes } from "./system-notes.ts";
import { writeLabelEvents, writeMilestoneEvent } from "../issuable/resource-events.ts";

/** Distinct timestamps keep assignees and reviewers in the order given. */
const ordered = (ids: readonly number[], now: Date) => ids.map((userId, i) => ({ userId, createdAt: new Date(now.getTime() + i) }));

/**
 * GitLab's PUT /projects/:id/merge_requests/:merge_request_iid: update_merge_request (Developer+,
 * the author or an assignee; 403 otherwise); labels, milestone, assignees, reviewers and the lock
 * need admin_merge_request and are silently ignored without it. A title with a draft prefix makes
 * it a draft. state_event close/reopen (a merged merge request stays merged; reopening needs the
 * source branch and no other open merge request for the branches). A new target branch must exist
 * and records a new diff version. Label, milestone and state events, system notes and one webhook
 * event are written with the change.
 */
export const updateMergeRequest =
  (deps: CollabDeps) =>
  async (req: UpdateMergeRequestRequest__Output): Promise<MergeRequest> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const { parent, project, mr } = scope;
    if (!canUpdateMergeRequest(scope, mr)) throw forbidden();
    const admin = canAdminMergeRequest(scope);
    const data: Prisma.MergeRequestUncheckedUpdateInput = {};
    if (req.title !== undefined) {
      const title = req.title.trim();
      if (!title) throw badRequest({ title: ["can't be blank"] });
      if (title.length > 255) throw badRequest({ title: ["is too long (maximum is 255 characters)"] });
      data.title = title;
      data.draft = isDraftTitle(title);
    }
    if (descriptionTooLong(req.description)) throw badRequest({ description: [`is too long (maximum is ${DESCRIPTION_MAX} characters)`] });
    if (req.description !== undefined) data.description = req.description;
    if (req.removeSourceBranch !== undefined) data.forceRemoveSourceBranch = req.removeSourceBranch;
    if (req.squash !== undefined) data.squash = req.squash;
    if (req.allowCollaboration !== undefined) data.allowCollaboration = req.allowCollaboration;
    if (admin && req.discussionLocked !== undefined) data.discussionLocked = req.discussionLocked;
    const editable = mr.state !== "merged";

    // A new target branch: it must exist and differ from the source; the diff is taken anew.
    let retarget: CollectedDiff | null = null;
    const targetBranch = editable && req.targetBranch !== undefined && req.targetBranch !== mr.targetBranch ? req.targetBranch : null;
    if (targetBranch !== null) {
      if (targetBranch === mr.sourceBranch) throw sameBranchRefusal();
      const targetSha = await branchHead(deps, project, targetBranch);
      if (!targetSha) throw badRequest({ target_branch: ["does not exist"] });
      const sourceSha = await branchHead(deps, project, mr.sourceBranch);
      if (sourceSha) retarget = await collectDiff(deps, project, sourceSha, targetSha);
      data.targetBranch = targetBranch;
    }
    // Reopening takes the diff anew (ReopenService#reload_diff); without the source branch it is not reopenable.
    let reopen: CollectedDiff | null = null;
    let reopenable = false;
    if (req.stateEvent === "reopen" && mr.state === "closed") {
      const [sourceSha, targetSha] = await Promise.all([
        branchHead(deps, project, mr.sourceBranch),
        branchHead(deps, project, targetBranch ?? mr.targetBranch),
      ]);
      reopenable = sourceSha !== null && targetSha !== null;
      if (reopenable) reopen = retarget ?? (await collectDiff(deps, project, sourceSha!, targetSha!));
    }

    const assignees = admin && req.setAssignees ? await readableAssignees(deps, parent, req.assigneeIds.map(Number)) : null;
    const reviewers = admin && req.setReviewers ? await readableAssignees(deps, parent, req.reviewerIds.map(Number)) : null;
    const userId = parent.userId;
    const usernames = await usernamesOf(deps, [
      ...mr.assignees.map((a) => a.userId),
      ...mr.reviewers.map((r) => r.userId),
      ...(assignees ?? []),
      ...(reviewers ?? []),
    ]);
    const fresh = reopen ?? retarget;
    const lastCommit = fresh ? await lastCommitHookAttrs(deps, scope, fresh.headCommitSha) : await lastCommitHookAttrs(deps, scope, mr.headSha);

    await deps.prisma.$transaction(async (tx) => {
      // Serialises concurrent updates of one merge request, so events match what happened.
      await tx.$queryRaw`SELECT id FROM merge_requests WHERE id = ${mr.id} FOR UPDATE`;
      const before = await mergeRequestSnapshot(tx, mr.id);
      const current = before.mr;
      const now = new Date();
      let changed = Object.keys(data).some((k) => (current as Record<string, unknown>)[k] !== data[k as keyof typeof data]);
      if (data.title !== undefined || data.description !== undefined) {
        if (data.title !== current.title || (data.description !== undefined && data.description !== current.description)) {
          Object.assign(data, { lastEditedAt: now, lastEditedById: userId || null });
        }
      }

      if (admin && (req.setLabels || req.addLabels.length || req.removeLabels.length)) {
        const had = new Set(before.labels.map((l) => l.id));
        let after = new Set(had);
        if (req.setLabels) after = new Set((await findOrCreateLabels(tx, parent, req.labels)).map((l) => l.id));
        for (const l of await findOrCreateLabels(tx, parent, req.addLabels)) after.add(l.id);
        for (const l of await findLabels(tx, parent, req.removeLabels)) after.delete(l.id);
        const added = [...after].filter((id) => !had.has(id));
        const removed = [...had].filter((id) => !after.has(id));
        if (removed.length) await tx.mergeRequestLabel.deleteMany({ where: { mergeRequestId: mr.id, labelId: { in: removed } } });
        if (added.length) await tx.mergeRequestLabel.createMany({ data: added.map((labelId) => ({ mergeRequestId: mr.id, labelId })) });
        await writeLabelEvents(tx, { mergeRequestId: mr.id }, userId, added, removed, now);
        changed ||= added.length + removed.length > 0;
      }

      let state = current.state;
      if (req.stateEvent === "close" && current.state === "opened") {
        state = "closed";
        Object.assign(data, { state, closedAt: now, closedById: userId || null, mergeWhenPipelineSucceeds: false });
        await tx.resourceStateEvent.create({ data: { mergeRequestId: mr.id, state: "closed", userId, createdAt: now } });
        changed = true;
      } else if (req.stateEvent === "reopen" && current.state === "closed" && reopenable) {
        const other = await tx.mergeRequest.findFirst({
          where: {
            projectId: mr.projectId,
            sourceBranch: mr.sourceBranch,
            targetBranch: targetBranch ?? current.targetBranch,
            state: "opened",
            id: { not: mr.id },
          },
          orderBy: { id: "asc" },
        });
        if (other) throw conflict([`Another open merge request already exists for this source branch: ${mergeRequestReference(other.iid)}`]);
        state = "opened";
        Object.assign(data, { state, closedAt: null, closedById: null });
        await tx.resourceStateEvent.create({ data: { mergeRequestId: mr.id, state: "reopened", userId, createdAt: now } });
        changed = true;
      }
      if (targetBranch !== null && state === "opened") {
        const other = await tx.mergeRequest.findFirst({
          where: { projectId: mr.projectId, sourceBranch: mr.sourceBranch, targetBranch, state: "opened", id: { not: mr.id } },
          orderBy: { id: "asc" },
        });
        if (other) throw conflict([`Another open merge request already exists for this source branch: ${mergeRequestReference(other.iid)}`]);
      }

      const version = state === "opened" ? (state !== current.state ? reopen : retarget) : null;
      if (version) {
        await recordDiff(tx, mr.id, version);
        Object.assign(data, { headSha: version.headCommitSha, mergeStatus: "unchecked" });
      }

      if (admin && req.milestoneId !== undefined) {
        const milestoneId = await allowedMilestoneId(tx, parent, Number(req.milestoneId));
        if (milestoneId !== current.milestoneId) {
          data.milestoneId = milestoneId;
          await writeMilestoneEvent(tx, { mergeRequestId: mr.id }, { from: current.milestoneId, to: milestoneId }, state, userId, now);
          changed = true;
        }
      }

      if (assignees && assignees.join() !== before.assigneeIds.join()) {
        await tx.mergeRequestAssignee.deleteMany({ where: { mergeRequestId: mr.id } });
        if (assignees.length) await tx.mergeRequestAssignee.createMany({ data: ordered(assignees, now).map((a) => ({ ...a, mergeRequestId: mr.id })) });
        changed = true;
      }
      if (reviewers && reviewers.join() !== before.reviewerIds.join()) {
        // Reviewers who stay keep their review state.
        await tx.mergeRequestReviewer.deleteMany({ where: { mergeRequestId: mr.id, userId: { notIn: reviewers } } });
        const kept = new Set(before.reviewerIds);
        const added = reviewers.filter((id) => !kept.has(id));
        if (added.length) await tx.mergeRequestReviewer.createMany({ data: ordered(added, now).map((r) => ({ ...r, mergeRequestId: mr.id })) });
        changed = true;
      }

      if (!changed) return;
      const updated = await tx.mergeRequest.update({ where: { id: mr.id }, data: { ...data, updatedById: userId || null, updatedAt: now } });
      const noteState = (m: typeof updated, a: readonly number[], r: readonly number[]) => ({
        title: m.title,
        description: m.description,
        discussionLocked: m.discussionLocked,
        targetBranch: m.targetBranch,
        assigneeIds: a,
        reviewerIds: r,
      });
      await recordMergeRequestNotes(tx, {
        mr: updated,
        before: noteState(current, before.assigneeIds, before.reviewerIds),
        after: noteState(updated, assignees ?? before.assigneeIds, reviewers ?? before.reviewerIds),
        authorId: userId,
        usernames,
      });
      // One webhook per update: "close"/"reopen" when the state changed, "update" otherwise.
      const action = updated.state !== current.state ? (updated.state === "closed" ? "close" : "reopen") : "update";
      await enqueueMergeRequestEvent(tx, { mergeRequestId: mr.id, scope, action, before, actorUserId: userId, usernames, lastCommit });
      // Under the row lock (ordered with the push refresh) and before the event goes out.
      if (version) await writeHeadRef(deps, project, mr.iid, version.headCommitSha);
    });
    publishSoon(deps);
    return loadMergeRequestMessage(deps, scope, mr.id);
  };
