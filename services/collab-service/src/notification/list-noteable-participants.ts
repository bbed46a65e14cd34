import { ServiceError, status } from "@quarry/grpc";
import type { ListNoteableParticipantsRequest__Output } from "@quarry/proto/types/collab/v1/ListNoteableParticipantsRequest";
import type { ListNoteableParticipantsResponse } from "@quarry/proto/types/collab/v1/ListNoteableParticipantsResponse";
import type { CollabDeps } from "../deps.ts";
import { mentionedUsernames } from "./mentions.ts";

/** Mentions resolved per noteable at most (a comment naming hundreds of users is not a mailing list). */
const MAX_MENTIONS = 100;

/**
 * GitLab's Participable#participants for notification e-mails (hook-service): the author, assignees,
 * reviewers, comment authors, and the users @mentioned in the description and comments; plus who
 * one note (or the description) mentions. Readability is the caller's to decide (it knows the
 * members and levels); here every existing mentioned user counts.
 */
export const listNoteableParticipants =
  (deps: CollabDeps) =>
  async (req: ListNoteableParticipantsRequest__Output): Promise<ListNoteableParticipantsResponse> => {
    if (!req.actor?.system) throw new ServiceError(status.PERMISSION_DENIED, { message: "403 Forbidden" });
    const projectId = Number(req.projectId);
    const id = Number(req.noteableId);
    const type = req.noteableType;
    let head: { authorId: number; description: string | null; others: number[] } | null = null;
    if (type === "Issue") {
      const r = await deps.prisma.issue.findFirst({ where: { id, projectId }, include: { assignees: { orderBy: { userId: "asc" } } } });
      if (r) head = { authorId: r.authorId, description: r.description, others: r.assignees.map((a) => a.userId) };
    } else if (type === "MergeRequest") {
      const r = await deps.prisma.mergeRequest.findFirst({
        where: { id, projectId },
        include: { assignees: { orderBy: { createdAt: "asc" } }, reviewers: { orderBy: { createdAt: "asc" } } },
      });
      if (r) head = { authorId: r.authorId, description: r.description, others: [...r.assignees.map((a) => a.userId), ...r.reviewers.map((a) => a.userId)] };
    } else if (type === "Snippet") {
      const r = await deps.prisma.snippet.findFirst({ where: { id, projectId } });
      if (r) head = { authorId: r.authorId, description: r.description, others: [] };
    }
    if (!head) throw new ServiceError(status.NOT_FOUND, { message: "404 Not found" });
    const notes = await deps.prisma.note.findMany({
      where: { noteableType: type, noteableId: id, system: false },
      select: { id: true, authorId: true, body: true },
      orderBy: { id: "asc" },
    });
    const noteId = Number(req.noteId);
    const focus = noteId > 0 ? notes.find((n) => n.id === noteId)?.body : head.description;
    const focusNames = mentionedUsernames(focus);
    const names = [...new Set([...mentionedUsernames(head.description), ...notes.flatMap((n) => mentionedUsernames(n.body)), ...focusNames])].slice(
      0,
      MAX_MENTIONS,
    );
    const byName = await resolveUsernames(deps, names);
    const mentioned = names.map((n) => byName.get(n)).filter((x): x is number => x !== undefined);
    const ids = [head.authorId, ...head.others, ...notes.map((n) => n.authorId), ...mentioned];
    return {
      userIds: [...new Set(ids)],
      mentionedUserIds: [...new Set(focusNames.map((n) => byName.get(n)).filter((x): x is number => x !== undefined))],
    };
  };

/** Lower-cased username → user id, for the usernames that name a user (identity's exact match). */
async function resolveUsernames(deps: CollabDeps, names: string[]): Promise<Map<string, number>> {
  const actor = { userId: 0, isAdmin: true, system: "collab-service" };
  const found = await Promise.all(
    names.map(async (username) => {
      const res = await deps.identity.ListUsers({ actor, username, page: { page: 1, perPage: 1 } });
      const u = res.users[0];
      return u && u.username.toLowerCase() === username ? ([username, Number(u.id)] as const) : null;
    }),
  );
  return new Map(found.filter((x): x is readonly [string, number] => x !== null));
}
