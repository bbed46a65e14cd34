import { AccessLevel } from "@quarry/gitlab";
import { forbidden } from "@quarry/grpc";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { IssueRef__Output } from "@quarry/proto/types/collab/v1/IssueRef";
import type { CollabDeps } from "../deps.ts";
import { findVisibleIssue } from "./access.ts";

/**
 * DELETE /projects/:id/issues/:issue_iid: destroy_issue is for Owners and admins (403 otherwise);
 * the issue's notes (and their award emoji), its award emoji and resource events go with it.
 */
export const deleteIssue =
  (deps: CollabDeps) =>
  async (req: IssueRef__Output): Promise<Empty> => {
    const { parent, issue } = await findVisibleIssue(deps, req.actor, req.project, Number(req.issueIid));
    if (!parent.isAdmin && !(parent.userId > 0 && parent.accessLevel >= AccessLevel.OWNER)) throw forbidden();
    await deps.prisma.$transaction(async (tx) => {
      const notes = await tx.note.findMany({ where: { noteableType: "Issue", noteableId: issue.id }, select: { id: true } });
      const noteIds = notes.map((n) => n.id);
      await tx.awardEmoji.deleteMany({
        where: {
          OR: [{ awardableType: "Issue", awardableId: issue.id }, ...(noteIds.length ? [{ awardableType: "Note", awardableId: { in: noteIds } }] : [])],
        },
      });
      await tx.note.deleteMany({ where: { id: { in: noteIds } } });
      await tx.resourceLabelEvent.deleteMany({ where: { issueId: issue.id } });
      await tx.resourceStateEvent.deleteMany({ where: { issueId: issue.id } });
      await tx.resourceMilestoneEvent.deleteMany({ where: { issueId: issue.id } });
      await tx.issue.delete({ where: { id: issue.id } });
    });
    return {};
  };
