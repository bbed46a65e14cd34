// GET /projects/:id/runners: the project's own runners and the instance runners, filtered.
import { httpErrorFromGrpc } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { createRunner } from "./create-runner.ts";
import { listProjectRunners } from "./list-project-runners.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_list_project_runners");
});
afterAll(() => t.close());

const make = (runnerType: string, o: { projectId?: number; groupId?: number; paused?: boolean; tagList?: string[] } = {}) =>
  createRunner(t.deps)({
    runnerType,
    projectId: o.projectId ?? 0,
    groupId: o.groupId ?? 0,
    description: `${runnerType} ${o.projectId ?? o.groupId ?? ""}`,
    maintenanceNote: "",
    paused: o.paused ?? false,
    locked: false,
    runUntagged: true,
    tagList: o.tagList ?? [],
    accessLevel: "",
    maximumTimeout: 0,
    createdByUserId: 1,
  });
const list = async (projectId: number, o: { type?: string; paused?: boolean; tagList?: string[]; page?: number; perPage?: number } = {}) => {
  const answer = await listProjectRunners(t.deps)({
    projectId,
    type: o.type ?? "",
    paused: o.paused,
    tagList: o.tagList ?? [],
    page: o.page ?? 1,
    perPage: o.perPage ?? 20,
  });
  return { runners: answer.runners ?? [], total: answer.total, busyRunnerIds: answer.busyRunnerIds ?? [] };
};

describe("ListProjectRunners", () => {
  it("lists the project's runners and the instance runners by id, with filters and pages", async () => {
    const shared = await make("instance_type", { tagList: ["docker"] });
    const own = await make("project_type", { projectId: 7, paused: true, tagList: ["docker", "linux"] });
    await make("project_type", { projectId: 8 });
    await make("group_type", { groupId: 3 });
    const ids = (r: Awaited<ReturnType<typeof list>>) => r.runners.map((x) => Number(x.id));

    const all = await list(7);
    expect(ids(all)).toEqual([Number(shared.runner!.id), Number(own.runner!.id)]);
    expect(Number(all.total)).toBe(2);
    expect(ids(await list(7, { type: "project_type" }))).toEqual([Number(own.runner!.id)]);
    expect(ids(await list(7, { paused: false }))).toEqual([Number(shared.runner!.id)]);
    expect(ids(await list(7, { tagList: ["docker", "linux"] }))).toEqual([Number(own.runner!.id)]);
    const second = await list(7, { page: 2, perPage: 1 });
    expect(ids(second)).toEqual([Number(own.runner!.id)]);
    expect(Number(second.total)).toBe(2);
    expect(ids(await list(9))).toEqual([Number(shared.runner!.id)]);
  });

  it("names the runners running a job now", async () => {
    const own = await make("project_type", { projectId: 17 });
    const pipeline = await seedPipeline(t.deps.prisma, { projectId: 17 });
    await seedJob(t.deps.prisma, pipeline, { status: "running", runnerId: Number(own.runner!.id) });
    expect((await list(17, { type: "project_type" })).busyRunnerIds.map(Number)).toEqual([Number(own.runner!.id)]);
  });

  it("refuses an unknown type", async () => {
    expect(await list(7, { type: "nope" }).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 400,
      body: { error: "type does not have a valid value" },
    });
  });
});
