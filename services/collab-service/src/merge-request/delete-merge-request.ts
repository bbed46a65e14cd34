import { forbidden } from "@quarry/grpc";
import type { Empty } from "@quarry/proto/types/collab/v1/Empty";
import type { MergeRequestRef__Output } from "@quarry/proto/types/collab/v1/MergeRequestRef";
import type { CollabDeps } from "../deps.ts";
import { canDestroyMergeRequest, findVisibleMergeRequest } from "./access.ts";

/**
 * DELETE /projects/:id/merge_requests/:merge_request_iid (Issuable::DestroyService):
 * destroy_merge_request is for Owners and administrators (403 otherwise). Its notes (and their
 * emoji), its emoji and resource events go in the same transaction; assignees, reviewers, labels,
 * diff versions, approvals and context commits by cascade; then its refs/merge-requests/:iid/*.
 */
export const deleteMergeRequest =
  (deps: CollabDeps) =>
  async (req: MergeRequestRef__Output): Promise<Empty> => {
    const scope = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const { mr } = scope;
    if (!canDestroyMergeRequest(scope)) throw forbidden();
    await deps.prisma.$transaction(async (tx) => {
      const notes = await tx.note.findMany({ where: { noteableType: "MergeRequest", noteableId: mr.id }, select: { id: true } });
      const noteIds = notes.map((n) => n.id);
      await tx.awardEmoji.deleteMany({
        where: {
          OR: [{ awardableType: "MergeRequest", awardableId: mr.id }, ...(noteIds.length ? [{ awardableType: "Note", awardableId: { in: noteIds } }] : [])],
        },
      });
      await tx.note.deleteMany({ where: { id: { in: noteIds } } });
      await tx.resourceLabelEvent.deleteMany({ where: { mergeRequestId: mr.id } });
      await tx.resourceStateEvent.deleteMany({ where: { mergeRequestId: mr.id } });
      await tx.resourceMilestoneEvent.deleteMany({ where: { mergeRequestId: mr.id } });
      await tx.mergeRequest.delete({ where: { id: mr.id } });
    });
    try {
      await deps.repo.DeleteMergeRequestRefs({ diskPath: scope.project.diskPath, iid: mr.iid });
    } catch (err) {
      deps.log.warn({ err, projectId: mr.projectId, iid: mr.iid }, "deleting the merge request refs failed");
    }
    return {};
  };
