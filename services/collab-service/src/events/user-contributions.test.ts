import { Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { settleUserContributions } from "./user-contributions.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_user_contrib");
});
afterAll(() => t?.close());

/** A user's issue (assigned to them) with their comment and emoji, another's issue they closed, and a snippet. */
async function contributions() {
  const project = await t.project();
  const [user, other, ghost] = [await t.user(), await t.user(), await t.user()];
  const db = t.svc.deps.prisma;
  const issue = await db.issue.create({
    data: { projectId: project.id, iid: 1, title: "theirs", authorId: user.userId, assignees: { create: [{ userId: user.userId }] } },
  });
  const closed = await db.issue.create({ data: { projectId: project.id, iid: 2, title: "closed by them", authorId: other.userId, closedById: user.userId } });
  const note = await db.note.create({
    data: { noteableType: "Issue", noteableId: closed.id, projectId: project.id, authorId: user.userId, body: "b", discussionId: "d".repeat(40) },
  });
  await db.awardEmoji.createMany({
    data: [
      { name: "thumbsup", userId: user.userId, awardableType: "Issue", awardableId: closed.id },
      // The Ghost User already gave this one: the user's copy is dropped, not duplicated.
      { name: "tada", userId: user.userId, awardableType: "Issue", awardableId: closed.id },
      { name: "tada", userId: ghost.userId, awardableType: "Issue", awardableId: closed.id },
    ],
  });
  await db.resourceStateEvent.create({ data: { issueId: closed.id, state: "closed", userId: user.userId } });
  const snippet = await t.client.CreateSnippet({ actor: user, title: "s", visibility: "public", fileName: "a", content: "a" });
  return { db, user, other, ghost, issue, closed, note, snippetId: Number(snippet.id) };
}

describe("a deleted user's contributions", () => {
  it("move to the Ghost User; assignments end", async () => {
    const c = await contributions();
    await t.bus.publish(Subjects.userContributions, { event_id: "e1", user_id: c.user.userId, ghost_user_id: c.ghost.userId, hard_delete: false });
    await waitFor(async () => (await c.db.issue.findUnique({ where: { id: c.issue.id } }))?.authorId === c.ghost.userId, { message: "issue moved" });
    expect(await c.db.issue.findUnique({ where: { id: c.closed.id } })).toMatchObject({ authorId: c.other.userId, closedById: c.ghost.userId });
    expect((await c.db.note.findUnique({ where: { id: c.note.id } }))?.authorId).toBe(c.ghost.userId);
    expect((await c.db.snippet.findUnique({ where: { id: c.snippetId } }))?.authorId).toBe(c.ghost.userId);
    expect(await c.db.awardEmoji.findMany({ where: { awardableId: c.closed.id }, select: { name: true, userId: true }, orderBy: { name: "asc" } })).toEqual([
      { name: "tada", userId: c.ghost.userId },
      { name: "thumbsup", userId: c.ghost.userId },
    ]);
    expect((await c.db.resourceStateEvent.findFirst({ where: { issueId: c.closed.id } }))?.userId).toBe(c.ghost.userId);
    expect(await c.db.issueAssignee.count({ where: { userId: c.user.userId } })).toBe(0);
    // A redelivery finds nothing of the user left.
    await settleUserContributions(t.svc.deps, { user_id: c.user.userId, ghost_user_id: c.ghost.userId, hard_delete: false });
  });

  it("are deleted with hard_delete; what they did to others' work goes to the Ghost User", async () => {
    const c = await contributions();
    await settleUserContributions(t.svc.deps, { user_id: c.user.userId, ghost_user_id: c.ghost.userId, hard_delete: true });
    expect(await c.db.issue.findUnique({ where: { id: c.issue.id } })).toBeNull();
    expect(await c.db.note.findUnique({ where: { id: c.note.id } })).toBeNull();
    expect(await c.db.snippet.findUnique({ where: { id: c.snippetId } })).toBeNull();
    expect(await c.db.awardEmoji.findMany({ where: { awardableId: c.closed.id }, select: { name: true, userId: true } })).toEqual([
      { name: "tada", userId: c.ghost.userId },
    ]);
    expect(await c.db.issue.findUnique({ where: { id: c.closed.id } })).toMatchObject({ authorId: c.other.userId, closedById: c.ghost.userId });
  });
});
