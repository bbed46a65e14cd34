// GET /projects/:id/runners: the project's own runners, its groups' runners and the instance runners, filtered.
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
const list = async (
  projectId: number,
  o: { type?: string; paused?: boolean; status?: string; tagList?: string[]; groupIds?: number[]; page?: number; perPage?: number } = {},
) => {
  const answer = await listProjectRunners(t.deps)({
    projectId,
    groupIds: o.groupIds ?? [],
    status: o.status ?? "",
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

  it("adds the group runners of the groups the project sits in, not those of other groups", async () => {
    const parent = await make("group_type", { groupId: 41 });
    const sub = await make("group_type", { groupId: 42 });
    await make("group_type", { groupId: 43 });
    const own = await make("project_type", { projectId: 44 });
    const listed = await list(44, { groupIds: [42, 41] });
    const ids = listed.runners.filter((r) => r.runnerType !== "instance_type").map((r) => Number(r.id));
    expect(ids).toEqual([parent, sub, own].map((r) => Number(r.runner!.id)));
    expect((await list(44, { groupIds: [42, 41], type: "group_type" })).runners.map((r) => Number(r.id))).toEqual([
      Number(parent.runner!.id),
      Number(sub.runner!.id),
    ]);
    // Without the groups (a project in a user's namespace): no group runner.
    expect((await list(44, { type: "group_type" })).runners).toEqual([]);
  });

  it("filters by GitLab's runner statuses", async () => {
    const fresh = await make("project_type", { projectId: 51 });
    const online = await make("project_type", { projectId: 51 });
    const offline = await make("project_type", { projectId: 51, paused: true });
    const stale = await make("project_type", { projectId: 51 });
    const day = 24 * 3600_000;
    await t.deps.prisma.runner.update({ where: { id: Number(online.runner!.id) }, data: { contactedAt: new Date() } });
    await t.deps.prisma.runner.update({ where: { id: Number(offline.runner!.id) }, data: { contactedAt: new Date(Date.now() - 3 * 3600_000) } });
    await t.deps.prisma.runner.update({
      where: { id: Number(stale.runner!.id) },
      data: { createdAt: new Date(Date.now() - 30 * day), contactedAt: new Date(Date.now() - 8 * day) },
    });
    const ids = async (status: string) => (await list(51, { status, type: "project_type" })).runners.map((r) => Number(r.id));
    const id = (r: typeof fresh) => Number(r.runner!.id);
    expect(await ids("online")).toEqual([id(online)]);
    expect(await ids("offline")).toEqual([id(offline), id(stale)]);
    expect(await ids("never_contacted")).toEqual([id(fresh)]);
    expect(await ids("stale")).toEqual([id(stale)]);
    expect(await ids("paused")).toEqual([id(offline)]);
    expect(await ids("active")).toEqual([id(fresh), id(online), id(stale)]);
    expect(await list(51, { status: "sleepy" }).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 400,
      body: { error: "status does not have a valid value" },
    });
  });

  it("refuses an unknown type", async () => {
    expect(await list(7, { type: "nope" }).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
      status: 400,
      body: { error: "type does not have a valid value" },
    });
  });
});
