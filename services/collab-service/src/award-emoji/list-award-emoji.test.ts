import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { issueRow, noteRow, onIssue } from "./fixtures.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_award_list");
});
afterAll(() => t?.close());

describe("ListAwardEmoji", () => {
  it("lists an issue's awards by id, paginated, apart from its notes' awards", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    const note = await noteRow(t, issue);
    for (const name of ["thumbsup", "thumbsdown", "tada"]) await t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue), name });
    await t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue, note.id), name: "rocket" });
    const all = await t.client.ListAwardEmoji({ actor: t.anonymous, awardable: onIssue(issue) });
    expect(all.awardEmoji.map((a) => a.name)).toEqual(["thumbsup", "thumbsdown", "tada"]);
    expect(all.pageInfo).toMatchObject({ total: 3, page: 1, perPage: 20 });
    const second = await t.client.ListAwardEmoji({ actor: t.admin, awardable: onIssue(issue), page: { page: 2, perPage: 2 } });
    expect(second.awardEmoji.map((a) => a.name)).toEqual(["tada"]);
    const onNote = await t.client.ListAwardEmoji({ actor: t.admin, awardable: onIssue(issue, note.id) });
    expect(onNote.awardEmoji.map((a) => [a.name, a.awardableType])).toEqual([["rocket", "Note"]]);
  });

  it("hides confidential issues from outsiders and internal notes from guests", async () => {
    const project = await t.project();
    const [outsider, guest, reporter] = await Promise.all([t.user(), t.user(), t.user()]);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, reporter, AccessLevel.REPORTER);
    const confidential = await issueRow(t, project.id, { confidential: true });
    expect(await failure(t.client.ListAwardEmoji({ actor: outsider, awardable: onIssue(confidential) }))).toEqual({
      status: 404,
      body: { message: "404 Issue Not Found" },
    });
    expect((await t.client.ListAwardEmoji({ actor: reporter, awardable: onIssue(confidential) })).awardEmoji).toEqual([]);
    const issue = await issueRow(t, project.id);
    const internal = await noteRow(t, issue, { internal: true });
    expect(await failure(t.client.ListAwardEmoji({ actor: guest, awardable: onIssue(issue, internal.id) }))).toEqual({
      status: 404,
      body: { message: "404 Note Not Found" },
    });
    expect((await t.client.ListAwardEmoji({ actor: reporter, awardable: onIssue(issue, internal.id) })).awardEmoji).toEqual([]);
  });

  it("follows the project's visibility", async () => {
    const project = await t.project({ visibility: "private" });
    const issue = await issueRow(t, project.id);
    expect(await failure(t.client.ListAwardEmoji({ actor: t.anonymous, awardable: onIssue(issue) }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
  });
});
