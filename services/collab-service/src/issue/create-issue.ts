import { badRequest, conflict, paramError } from "@quarry/grpc";
import type { CreateIssueRequest__Output } from "@quarry/proto/types/collab/v1/CreateIssueRequest";
import type { Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { CollabDeps } from "../deps.ts";
import { enqueueIssueEvent } from "../events/issue-event.ts";
import { publishSoon } from "../events/outbox.ts";
import { noteStateOf, recordIssueSystemNotes } from "../system-note/record.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { resolveParent } from "../label/parent.ts";
import { loadIssueMessage } from "./entity.ts";
import {
  allowedMilestoneId,
  canSetMetadata,
  castDate,
  findOrCreateLabels,
  ISSUE_TYPES,
  isOwnerOrAdmin,
  issueTypeAllowed,
  readableAssignees,
  requireCreateIssue,
} from "./rules.ts";
import { writeLabelEvents, writeMilestoneEvent } from "../issuable/resource-events.ts";

/**
 * GitLab's Issues::CreateService through POST /projects/:id/issues: the next iid from the project's
 * counter (locked by the upsert, so concurrent creations never share one), metadata only for
 * Reporter+, iid and created_at only for Owners and admins, label and milestone events written with
 * the issue in one transaction.
 */
export const createIssue =
  (deps: CollabDeps) =>
  async (req: CreateIssueRequest__Output): Promise<Issue> => {
    const parent = await resolveParent(deps, req.actor, { project: req.project, group: "" });
    requireCreateIssue(parent);
    const title = req.title.trim();
    if (!title) throw badRequest({ title: ["can't be blank"] });
    if (title.length > 255) throw badRequest({ title: ["is too long (maximum is 255 characters)"] });
    const meta = canSetMetadata(parent);
    let issueType = req.issueType || "issue";
    if (!(ISSUE_TYPES as readonly string[]).includes(issueType)) throw paramError("issue_type does not have a valid value");
    if (!issueTypeAllowed(parent, issueType)) issueType = "issue";
    const owner = isOwnerOrAdmin(parent);
    const assignees = meta ? await readableAssignees(deps, parent, req.assigneeIds.map(Number)) : [];
    const createdAt = owner && req.createdAt ? new Date(req.createdAt) : undefined;
    if (createdAt && Number.isNaN(createdAt.getTime())) throw paramError("created_at is invalid");
    const wantedIid = owner ? Number(req.iid) : 0;
    const actorId = parent.userId;
    const usernames = await usernamesOf(deps, assignees);

    const id = await deps.prisma.$transaction(async (tx) => {
      // The counter row is locked until commit: the next creation waits and takes the next number.
      const counter = await tx.$queryRaw<{ last_iid: number }[]>`
        INSERT INTO issue_iids (project_id, last_iid) VALUES (${parent.id}, 1)
        ON CONFLICT (project_id) DO UPDATE SET last_iid = issue_iids.last_iid + 1
        RETURNING last_iid`;
      let iid = Number(counter[0]!.last_iid);
      if (wantedIid > 0) {
        if (await tx.issue.findUnique({ where: { projectId_iid: { projectId: parent.id, iid: wantedIid } } })) {
          // ActiveRecord::RecordNotUnique, which the API answers as 409 Duplicated issue.
          throw conflict("Duplicated issue");
        }
        iid = wantedIid;
        // Later issues continue after the highest number handed out.
        await tx.$executeRaw`UPDATE issue_iids SET last_iid = GREATEST(last_iid - 1, ${wantedIid}) WHERE project_id = ${parent.id}`;
      }
      const labels = meta ? await findOrCreateLabels(tx, parent, req.labels) : [];
      const milestoneId = meta ? await allowedMilestoneId(tx, parent, Number(req.milestoneId)) : null;
      const now = createdAt ?? new Date();
      const issue = await tx.issue.create({
        data: {
          projectId: parent.id,
          iid,
          title,
          description: req.description ?? null,
          confidential: req.confidential,
          discussionLocked: meta && req.discussionLocked !== undefined ? req.discussionLocked : null,
          issueType,
          authorId: actorId,
          milestoneId,
          dueDate: meta ? castDate(req.dueDate) : null,
          createdAt: now,
          updatedAt: now,
          assignees: { create: assignees.map((userId) => ({ userId })) },
          labels: { create: labels.map((l) => ({ labelId: l.id })) },
        },
      });
      await writeLabelEvents(
        tx,
        { issueId: issue.id },
        actorId,
        labels.map((l) => l.id),
        [],
        now,
      );
      if (milestoneId !== null) {
        await writeMilestoneEvent(tx, { issueId: issue.id }, { from: null, to: milestoneId }, "opened", actorId, now);
      }
      await recordIssueSystemNotes(tx, { issue, before: null, after: noteStateOf(issue, assignees), authorId: actorId, usernames });
      await enqueueIssueEvent(tx, { issue, projectPath: parent.fullPath, action: "open", actorUserId: actorId });
      return issue.id;
    });
    publishSoon(deps);
    return loadIssueMessage(deps, parent, id);
  };
