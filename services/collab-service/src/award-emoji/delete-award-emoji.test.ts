import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { issueRow, noteRow, onIssue } from "./fixtures.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_award_delete");
});
afterAll(() => t?.close());

describe("DeleteAwardEmoji", () => {
  it("lets the awarder and administrators delete; anyone else gets GitLab's 401", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    const note = await noteRow(t, issue);
    const [owner, other] = await Promise.all([t.user(), t.user()]);
    const mine = await t.client.CreateAwardEmoji({ actor: owner, awardable: onIssue(issue), name: "thumbsup" });
    const onNote = await t.client.CreateAwardEmoji({ actor: owner, awardable: onIssue(issue, note.id), name: "thumbsup" });
    const unauthorized = { status: 401, body: { message: "401 Unauthorized" } };
    expect(await failure(t.client.DeleteAwardEmoji({ actor: other, awardable: onIssue(issue), awardId: mine.id }))).toEqual(unauthorized);
    expect(await failure(t.client.DeleteAwardEmoji({ actor: t.anonymous, awardable: onIssue(issue), awardId: mine.id }))).toEqual(unauthorized);
    await t.client.DeleteAwardEmoji({ actor: owner, awardable: onIssue(issue), awardId: mine.id });
    await t.client.DeleteAwardEmoji({ actor: t.admin, awardable: onIssue(issue, note.id), awardId: onNote.id });
    expect(await t.svc.deps.prisma.awardEmoji.count({ where: { id: { in: [Number(mine.id), Number(onNote.id)] } } })).toBe(0);
    expect(await failure(t.client.DeleteAwardEmoji({ actor: owner, awardable: onIssue(issue), awardId: mine.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
  });
});
