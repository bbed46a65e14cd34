import type { ListJobsRequest__Output } from "@quarry/proto/types/ci/v1/ListJobsRequest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { listJobs } from "./list-jobs.ts";

let t: TestContext;
const ids = {} as Record<"retried" | "build" | "trigger" | "manual" | "childBuild" | "otherProject", number>;
let parentId = 0;
let runnerId = 0;
beforeAll(async () => {
  t = await setUp("ci_list_jobs");
  const { prisma } = t.deps;
  const parent = await seedPipeline(prisma);
  parentId = parent.id;
  const child = await seedPipeline(prisma, { source: "parent_pipeline", parentPipelineId: parent.id });
  const other = await seedPipeline(prisma, { projectId: 2 });
  const runner = await prisma.runner.create({ data: { tokenDigest: "digest", runnerType: "instance_type", description: "shared" } });
  runnerId = runner.id;
  const seed = async (name: keyof typeof ids, pipeline: typeof parent, data: Parameters<typeof seedJob>[2] = {}) =>
    (ids[name] = (await seedJob(prisma, pipeline, { name, ...data })).id);
  await seed("retried", parent, { status: "failed", retried: true, runnerId: runner.id });
  await seed("build", parent, { status: "success", runnerId: runner.id });
  await seed("trigger", parent, { type: "bridge", status: "success", downstreamPipelineId: child.id });
  await seed("manual", parent, { status: "manual", when: "manual" });
  await seed("childBuild", child, { status: "pending" });
  await seed("otherProject", other);
});
afterAll(() => t?.close());

const list = async (req: Partial<ListJobsRequest__Output>) => {
  const res = await listJobs(t.deps)({
    projectId: 1,
    pipelineId: 0,
    scope: [],
    includeRetried: false,
    type: "",
    sort: "",
    page: 0,
    perPage: 0,
    keyset: false,
    idAfter: 0,
    ...req,
  });
  const jobs = res.jobs ?? [];
  return { ids: jobs.map((j) => Number(j.id)), total: Number(res.total), hasMore: res.hasMore, jobs };
};

it("lists every build of the project newest first, retried ones included, with a total", async () => {
  expect(await list({})).toMatchObject({ ids: [ids.childBuild, ids.manual, ids.build, ids.retried], total: 4, hasMore: false });
  expect(await list({ perPage: 3, page: 1 })).toMatchObject({ ids: [ids.childBuild, ids.manual, ids.build], total: 4, hasMore: true });
  expect((await list({ sort: "asc" })).ids).toEqual([ids.retried, ids.build, ids.manual, ids.childBuild]);
  expect((await list({ scope: ["success", "manual"] })).ids).toEqual([ids.manual, ids.build]);
  await expect(list({ scope: ["success", "done"] })).rejects.toMatchObject({ body: { error: "scope does not have a valid value" } });
});

it("pages by keyset after an id in either direction", async () => {
  expect(await list({ keyset: true, perPage: 2 })).toMatchObject({ ids: [ids.childBuild, ids.manual], hasMore: true });
  expect(await list({ keyset: true, perPage: 2, idAfter: ids.manual })).toMatchObject({ ids: [ids.build, ids.retried], hasMore: false });
  expect(await list({ keyset: true, perPage: 3, sort: "asc", idAfter: ids.retried })).toMatchObject({
    ids: [ids.build, ids.manual, ids.childBuild],
    hasMore: false,
  });
});

it("lists a pipeline's builds with its child pipelines', without retried ones unless asked", async () => {
  expect(await list({ pipelineId: parentId })).toMatchObject({ ids: [ids.childBuild, ids.manual, ids.build], total: 3 });
  expect((await list({ pipelineId: parentId, includeRetried: true })).ids).toEqual([ids.childBuild, ids.manual, ids.build, ids.retried]);
  expect((await list({ pipelineId: parentId, scope: ["pending"] })).ids).toEqual([ids.childBuild]);
});

it("lists a pipeline's bridges with their downstream pipelines", async () => {
  const { ids: bridgeIds, jobs } = await list({ pipelineId: parentId, type: "bridge" });
  expect(bridgeIds).toEqual([ids.trigger]);
  expect(jobs[0]).toMatchObject({ type: "bridge", downstreamPipeline: { parentPipelineId: parentId, source: "parent_pipeline" } });
});

it("carries runners loaded once for the page, playable and retryable flags", async () => {
  const { jobs } = await list({ includeRetried: true });
  const byId = new Map(jobs.map((j) => [Number(j.id), j]));
  expect(byId.get(ids.build)).toMatchObject({ runner: { id: runnerId, description: "shared", isShared: true, status: "never_contacted" }, retryable: true });
  expect(byId.get(ids.retried)).toMatchObject({ retried: true, retryable: false });
  expect(byId.get(ids.manual)).toMatchObject({ playable: true, runner: undefined });
});

it("answers 404 for a pipeline of another project", async () => {
  await expect(list({ projectId: 2, pipelineId: parentId })).rejects.toMatchObject({ body: { message: "404 Not found" } });
});
