import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { issueRow, noteRow, onIssue } from "./fixtures.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_award_get");
});
afterAll(() => t?.close());

describe("GetAwardEmoji", () => {
  it("finds an award of this awardable only; others are ActiveRecord's 404 Not found", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id);
    const note = await noteRow(t, issue);
    const award = await t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue), name: "heart" });
    const got = await t.client.GetAwardEmoji({ actor: t.anonymous, awardable: onIssue(issue), awardId: award.id });
    expect(got).toEqual(award);
    const recordNotFound = { status: 404, body: { message: "404 Not found" } };
    expect(await failure(t.client.GetAwardEmoji({ actor: t.admin, awardable: onIssue(issue, note.id), awardId: award.id }))).toEqual(recordNotFound);
    const other = await issueRow(t, project.id);
    expect(await failure(t.client.GetAwardEmoji({ actor: t.admin, awardable: onIssue(other), awardId: award.id }))).toEqual(recordNotFound);
    expect(await failure(t.client.GetAwardEmoji({ actor: t.admin, awardable: onIssue(issue), awardId: 0 }))).toEqual(recordNotFound);
  });

  it("hides a confidential issue's awards from outsiders", async () => {
    const project = await t.project();
    const issue = await issueRow(t, project.id, { confidential: true });
    const award = await t.client.CreateAwardEmoji({ actor: t.admin, awardable: onIssue(issue), name: "heart" });
    const outsider = await t.user();
    expect(await failure(t.client.GetAwardEmoji({ actor: outsider, awardable: onIssue(issue), awardId: award.id }))).toEqual({
      status: 404,
      body: { message: "404 Issue Not Found" },
    });
  });
});
