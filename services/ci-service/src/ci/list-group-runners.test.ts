// GET /groups/:id/runners: the group runners of the group and its ancestors, and the instance runners.
import { httpErrorFromGrpc } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runner } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { listGroupRunners } from "./list-group-runners.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_list_group_runners");
});
afterAll(() => t.close());

const list = async (groupIds: number[], o: { type?: string; paused?: boolean; status?: string; tagList?: string[]; page?: number; perPage?: number } = {}) => {
  const answer = await listGroupRunners(t.deps)({
    groupIds,
    type: o.type ?? "",
    paused: o.paused,
    status: o.status ?? "",
    tagList: o.tagList ?? [],
    page: o.page ?? 1,
    perPage: o.perPage ?? 20,
  });
  return { ids: (answer.runners ?? []).map((r) => Number(r.id)), total: Number(answer.total) };
};

describe("ListGroupRunners", () => {
  it("lists the runners of the group and its ancestors and the instance runners, by id, filtered and paged", async () => {
    const shared = await runner(t, { tagList: ["docker"] });
    const top = await runner(t, { runnerType: "group_type", groupId: 1, paused: true });
    const sub = await runner(t, { runnerType: "group_type", groupId: 2, tagList: ["docker"] });
    const subsub = await runner(t, { runnerType: "group_type", groupId: 3 });
    const sibling = await runner(t, { runnerType: "group_type", groupId: 4 });
    await runner(t, { runnerType: "project_type", projectId: 9 });

    // Group 2 below group 1: its own runners, its parent's, and the instance runners; not its subgroup's or a sibling's.
    expect(await list([2, 1])).toEqual({ ids: [shared.id, top.id, sub.id], total: 3 });
    expect((await list([3, 2, 1])).ids).toEqual([shared.id, top.id, sub.id, subsub.id]);
    expect((await list([4])).ids).toEqual([shared.id, sibling.id]);
    expect((await list([2, 1], { type: "group_type" })).ids).toEqual([top.id, sub.id]);
    expect((await list([2, 1], { type: "project_type" })).ids).toEqual([]);
    expect((await list([2, 1], { paused: true })).ids).toEqual([top.id]);
    expect((await list([2, 1], { status: "paused" })).ids).toEqual([top.id]);
    expect((await list([2, 1], { tagList: ["docker"] })).ids).toEqual([shared.id, sub.id]);
    expect(await list([2, 1], { page: 2, perPage: 2 })).toEqual({ ids: [sub.id], total: 3 });
  });

  it("refuses an unknown type or status, and a missing group", async () => {
    const err = (p: Promise<unknown>) => p.catch((e: unknown) => httpErrorFromGrpc(e));
    expect(await err(list([1], { type: "nope" }))).toEqual({ status: 400, body: { error: "type does not have a valid value" } });
    expect(await err(list([1], { status: "nope" }))).toEqual({ status: 400, body: { error: "status does not have a valid value" } });
    expect(await err(list([]))).toEqual({ status: 400, body: { error: "id is invalid" } });
  });
});
