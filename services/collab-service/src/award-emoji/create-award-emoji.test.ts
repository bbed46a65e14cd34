import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { issueRow, noteRow, onIssue } from "./fixtures.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_award_create");
});
afterAll(() => t?.close());

const notFound = (what: string) => ({ status: 404, body: { message: `404 ${what} Not Found` } });

describe("CreateAwardEmoji", () => {
  it('awards an issue and a note; "+1" is stored as thumbsup, ":rocket:" as rocket', async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    const note = await noteRow(t, issue);
    const user = await t.user();
    const award = await t.client.CreateAwardEmoji({ actor: user, awardable: onIssue(issue), name: "+1" });
    expect(award).toMatchObject({ name: "thumbsup", userId: user.userId, awardableId: issue.id, awardableType: "Issue" });
    const onNote = await t.client.CreateAwardEmoji({ actor: user, awardable: onIssue(issue, note.id), name: ":rocket:" });
    expect(onNote).toMatchObject({ name: "rocket", awardableId: note.id, awardableType: "Note" });
    expect(await failure(t.client.CreateAwardEmoji({ actor: user, awardable: onIssue(issue), name: "thumbsup" }))).toEqual(
      notFound("Award Emoji Name has already been taken"),
    );
    // Another user may award the same emoji.
    const other = await t.user();
    expect((await t.client.CreateAwardEmoji({ actor: other, awardable: onIssue(issue), name: "thumbsup" })).name).toBe("thumbsup");
  });

  it("refuses unknown and blank names with GitLab's 404 sentences, writing nothing", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    expect(await failure(t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue), name: "no_such_emoji" }))).toEqual(
      notFound("Award Emoji Name is not a valid emoji name"),
    );
    expect(await failure(t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue), name: "" }))).toEqual(
      notFound("Award Emoji Name can't be blank and Name is not a valid emoji name"),
    );
    expect(await t.svc.deps.prisma.awardEmoji.count({ where: { awardableId: issue.id } })).toBe(0);
  });

  it("needs a signed-in user who may read the awardable", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id, { confidential: true });
    const outsider = await t.user();
    expect(await failure(t.client.CreateAwardEmoji({ actor: t.anonymous, awardable: onIssue(issue), name: "tada" }))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
    expect(await failure(t.client.CreateAwardEmoji({ actor: outsider, awardable: onIssue(issue), name: "tada" }))).toEqual(notFound("Issue"));
    const internal = await noteRow(t, await issueRow(t, project.id), { internal: true });
    const guest = await t.user();
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    const plainIssue = { projectId: project.id, iid: (await t.svc.deps.prisma.issue.findUniqueOrThrow({ where: { id: internal.noteableId } })).iid };
    expect(await failure(t.client.CreateAwardEmoji({ actor: guest, awardable: onIssue(plainIssue, internal.id), name: "tada" }))).toEqual(notFound("Note"));
  });

  it("on a locked discussion only project members award (IssuablePolicy); system notes take no award", async () => {
    const project = await t.project();
    const locked = await issueRow(t, project.id, { discussionLocked: true });
    const [outsider, guest] = await Promise.all([t.user(), t.user()]);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    expect(await failure(t.client.CreateAwardEmoji({ actor: outsider, awardable: onIssue(locked), name: "eyes" }))).toEqual(notFound("Award Emoji"));
    const lockedNote = await noteRow(t, locked);
    expect(await failure(t.client.CreateAwardEmoji({ actor: outsider, awardable: onIssue(locked, lockedNote.id), name: "eyes" }))).toEqual(
      notFound("Award Emoji"),
    );
    expect((await t.client.CreateAwardEmoji({ actor: guest, awardable: onIssue(locked), name: "eyes" })).name).toBe("eyes");
    const system = await noteRow(t, await issueRow(t, project.id), { system: true });
    const issue = await t.svc.deps.prisma.issue.findUniqueOrThrow({ where: { id: system.noteableId } });
    expect(await failure(t.client.CreateAwardEmoji({ actor: guest, awardable: onIssue(issue, system.id), name: "eyes" }))).toEqual(
      notFound("Award Emoji Awardable cannot be awarded emoji"),
    );
  });

  it("answers unknown snippets and merge requests 404 (a merge request as find_by!: `404 Not found`)", async () => {
    const project = await t.project();
    expect(
      await failure(t.client.CreateAwardEmoji({ actor: t.admin, awardable: { type: "Snippet", project: String(project.id), id: 1 }, name: "tada" })),
    ).toEqual(notFound("Snippet"));
    expect(
      await failure(t.client.CreateAwardEmoji({ actor: t.admin, awardable: { type: "MergeRequest", project: String(project.id), id: 1 }, name: "tada" })),
    ).toEqual({ status: 404, body: { message: "404 Not found" } });
  });
});
