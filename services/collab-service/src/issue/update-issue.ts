import { badRequest, paramError } from "@quarry/grpc";
import type { Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { UpdateIssueRequest__Output } from "@quarry/proto/types/collab/v1/UpdateIssueRequest";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { enqueueIssueEvent, issueSnapshot } from "../events/issue-event.ts";
import { publishSoon } from "../events/outbox.ts";
import { noteStateOf, recordIssueSystemNotes } from "../system-note/record.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { findVisibleIssue } from "./access.ts";
import { loadIssueMessage } from "./entity.ts";
import {
  allowedMilestoneId,
  canSetMetadata,
  castDate,
  findLabels,
  findOrCreateLabels,
  ISSUE_TYPES,
  isOwnerOrAdmin,
  issueTypeAllowed,
  readableAssignees,
  requireUpdateIssue,
} from "./rules.ts";
import { writeLabelEvents, writeMilestoneEvent } from "../issuable/resource-events.ts";

/**
 * GitLab's Issues::UpdateService through PUT /projects/:id/issues/:issue_iid: update_issue for
 * Reporter+, the author and the assignees (403 otherwise); labels, milestone, assignees, due date,
 * confidentiality and the discussion lock silently ignored below Reporter; state_event close/reopen
 * sets or clears closed_at/closed_by. Label, milestone and state events, and the system notes of
 * the other changes (title, description, lock, due date, assignees, confidentiality, mentions), are
 * written in the same transaction as the change.
 */
export const updateIssue =
  (deps: CollabDeps) =>
  async (req: UpdateIssueRequest__Output): Promise<Issue> => {
    const { parent, issue } = await findVisibleIssue(deps, req.actor, req.project, Number(req.issueIid));
    requireUpdateIssue(parent, issue);
    const meta = canSetMetadata(parent);
    const data: Prisma.IssueUncheckedUpdateInput = {};
    if (req.title !== undefined) {
      const title = req.title.trim();
      if (!title) throw badRequest({ title: ["can't be blank"] });
      if (title.length > 255) throw badRequest({ title: ["is too long (maximum is 255 characters)"] });
      data.title = title;
    }
    if (req.description !== undefined) data.description = req.description;
    if (req.issueType !== undefined) {
      if (!(ISSUE_TYPES as readonly string[]).includes(req.issueType)) throw paramError("issue_type does not have a valid value");
      if (issueTypeAllowed(parent, req.issueType)) data.issueType = req.issueType;
    }
    if (meta && req.confidential !== undefined) data.confidential = req.confidential;
    if (meta && req.discussionLocked !== undefined) data.discussionLocked = req.discussionLocked;
    if (meta && req.dueDate !== undefined) data.dueDate = castDate(req.dueDate);
    const assignees = meta && req.setAssignees ? await readableAssignees(deps, parent, req.assigneeIds.map(Number)) : null;
    const updatedAt = isOwnerOrAdmin(parent) && req.updatedAt ? new Date(req.updatedAt) : undefined;
    if (updatedAt && Number.isNaN(updatedAt.getTime())) throw paramError("updated_at is invalid");
    const userId = parent.userId;
    const usernames = await usernamesOf(deps, [...issue.assignees.map((a) => a.userId), ...(assignees ?? [])]);

    await deps.prisma.$transaction(async (tx) => {
      // Serialises concurrent updates of one issue, so label and state events match what happened.
      await tx.$queryRaw`SELECT id FROM issues WHERE id = ${issue.id} FOR UPDATE`;
      const current = await tx.issue.findUniqueOrThrow({ where: { id: issue.id }, include: { labels: true, assignees: true } });
      const before = await issueSnapshot(tx, issue.id);
      const now = new Date();
      let changed = Object.keys(data).some((k) => (current as Record<string, unknown>)[k] !== data[k as keyof typeof data]);

      if (meta && (req.setLabels || req.addLabels.length || req.removeLabels.length)) {
        const before = new Set(current.labels.map((l) => l.labelId));
        let after = new Set(before);
        if (req.setLabels) after = new Set((await findOrCreateLabels(tx, parent, req.labels)).map((l) => l.id));
        for (const l of await findOrCreateLabels(tx, parent, req.addLabels)) after.add(l.id);
        for (const l of await findLabels(tx, parent, req.removeLabels)) after.delete(l.id);
        const added = [...after].filter((id) => !before.has(id));
        const removed = [...before].filter((id) => !after.has(id));
        if (removed.length) await tx.issueLabel.deleteMany({ where: { issueId: issue.id, labelId: { in: removed } } });
        if (added.length) await tx.issueLabel.createMany({ data: added.map((labelId) => ({ issueId: issue.id, labelId })) });
        await writeLabelEvents(tx, { issueId: issue.id }, userId, added, removed, now);
        changed ||= added.length + removed.length > 0;
      }

      let state = current.state;
      if (req.stateEvent === "close" && current.state !== "closed") {
        state = "closed";
        Object.assign(data, { state, closedAt: now, closedById: userId || null });
        await tx.resourceStateEvent.create({ data: { issueId: issue.id, state: "closed", userId, createdAt: now } });
        changed = true;
      } else if (req.stateEvent === "reopen" && current.state === "closed") {
        state = "opened";
        Object.assign(data, { state, closedAt: null, closedById: null });
        await tx.resourceStateEvent.create({ data: { issueId: issue.id, state: "reopened", userId, createdAt: now } });
        changed = true;
      }

      if (meta && req.milestoneId !== undefined) {
        const milestoneId = await allowedMilestoneId(tx, parent, Number(req.milestoneId));
        if (milestoneId !== current.milestoneId) {
          data.milestoneId = milestoneId;
          await writeMilestoneEvent(tx, { issueId: issue.id }, { from: current.milestoneId, to: milestoneId }, state, userId, now);
          changed = true;
        }
      }

      if (assignees) {
        const before = current.assignees.map((a) => a.userId).sort((a, b) => a - b);
        const after = [...assignees].sort((a, b) => a - b);
        if (before.join() !== after.join()) {
          await tx.issueAssignee.deleteMany({ where: { issueId: issue.id } });
          if (after.length) await tx.issueAssignee.createMany({ data: assignees.map((u) => ({ issueId: issue.id, userId: u })) });
          changed = true;
        }
      }

      if (changed || updatedAt) {
        const updated = await tx.issue.update({ where: { id: issue.id }, data: { ...data, updatedById: userId || null, updatedAt: updatedAt ?? now } });
        const assigneeIdsBefore = current.assignees.map((a) => a.userId);
        await recordIssueSystemNotes(tx, {
          issue: updated,
          before: noteStateOf(current, assigneeIdsBefore),
          after: noteStateOf(updated, assignees ?? assigneeIdsBefore),
          authorId: userId,
          usernames,
        });
        // One webhook per update: "close"/"reopen" when the state changed (GitLab sends a separate
        // "update" too when other fields changed in the same request; here they share this one).
        const action = updated.state !== current.state ? (updated.state === "closed" ? "close" : "reopen") : "update";
        await enqueueIssueEvent(tx, { issue: updated, projectPath: parent.fullPath, action, before, actorUserId: userId });
      }
    });
    publishSoon(deps);
    return loadIssueMessage(deps, parent, issue.id);
  };
