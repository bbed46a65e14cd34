import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetProject } from "../events/project-destroy.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_forget");
});
afterAll(() => t?.close());

describe("project deletion", () => {
  it("removes the project's merge requests with their versions, emoji, events and iid counter, and keeps other projects'", async () => {
    const f = await mergeRequestFixture(t);
    const other = await mergeRequestFixture(t);
    for (const x of [f, other]) await x.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { labels: ["l"] });
    const kept = await other.create(other.developer);
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "close" });
    const db = t.svc.deps.prisma;
    await db.awardEmoji.create({ data: { name: "thumbsup", userId: f.developer.userId, awardableType: "MergeRequest", awardableId: Number(mr.id) } });
    await forgetProject(t.svc.deps, f.project.id);
    expect(await db.mergeRequest.count({ where: { projectId: f.project.id } })).toBe(0);
    expect(await db.mergeRequestDiff.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(0);
    expect(await db.mergeRequestIid.count({ where: { projectId: f.project.id } })).toBe(0);
    expect(await db.awardEmoji.count({ where: { awardableType: "MergeRequest", awardableId: Number(mr.id) } })).toBe(0);
    expect(await db.resourceStateEvent.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(0);
    expect(await db.resourceLabelEvent.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(0);
    expect(await db.note.count({ where: { noteableType: "MergeRequest", noteableId: Number(mr.id) } })).toBe(0);
    expect(await db.mergeRequest.count({ where: { id: Number(kept.id) } })).toBe(1);
  });
});
