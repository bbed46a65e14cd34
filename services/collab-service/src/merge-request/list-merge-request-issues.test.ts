import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_issues");
});
afterAll(() => t?.close());

describe("ListMergeRequestIssues", () => {
  it("lists the issues closed by the title, description and commits, and the ones only mentioned; none for another target branch", async () => {
    const f = await mergeRequestFixture(t);
    for (let i = 1; i <= 5; i++) await t.client.CreateIssue({ actor: t.admin, project: String(f.project.id), title: `issue ${i}`, confidential: i === 5 });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main", message: "Fix it\n\nResolves #2" });
    await f.create(f.developer, { title: "Fixes #3", description: "Closes #1, see #4 and #5, Closes #5" });
    const iids = async (actor: typeof f.developer, closing: boolean) =>
      (await t.client.ListMergeRequestIssues({ actor, ...f.ref(1), closing })).issues.map((i) => Number(i.iid));
    expect(await iids(f.developer, true)).toEqual([3, 1, 5, 2]);
    expect(await iids(f.developer, false)).toEqual([3, 1, 5, 2, 4]);

    // Into another branch nothing is closed (GitLab closes issues on the default branch only).
    await f.commit("stable", { "s.txt": "s" }, { startBranch: "main" });
    await f.commit("topic", { "t.txt": "t" }, { startBranch: "stable" });
    await f.create(f.developer, { sourceBranch: "topic", targetBranch: "stable", description: "Closes #1" });
    expect((await t.client.ListMergeRequestIssues({ actor: f.developer, ...f.ref(2), closing: true })).issues).toEqual([]);
  });

  it("leaves out confidential issues the caller may not read", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await t.client.CreateIssue({ actor: t.admin, project: String(f.project.id), title: "secret", confidential: true });
    await t.client.CreateIssue({ actor: t.admin, project: String(f.project.id), title: "open" });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer, { description: "Closes #1 and #2" });
    expect((await t.client.ListMergeRequestIssues({ actor: f.outsider, ...f.ref(1), closing: true })).issues.map((i) => i.title)).toEqual(["open"]);
    expect((await t.client.ListMergeRequestIssues({ actor: f.reporter, ...f.ref(1), closing: true })).issues.map((i) => i.title)).toEqual(["secret", "open"]);
  });
});
