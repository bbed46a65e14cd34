import type { ListPipelinesRequest__Output } from "@quarry/proto/types/ci/v1/ListPipelinesRequest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedJob, seedPipeline } from "../../test/rows.ts";
import { listPipelines } from "./list-pipelines.ts";

let t: TestContext;
const ids = {} as Record<"mainOld" | "feature" | "tag" | "child" | "mainNew" | "otherProject", number>;
beforeAll(async () => {
  t = await setUp("ci_list_pipelines");
  const seed = async (name: keyof typeof ids, data: Parameters<typeof seedPipeline>[1]) => (ids[name] = (await seedPipeline(t.deps.prisma, data)).id);
  await seed("mainOld", { ref: "main", status: "success", sha: "1".repeat(40), userId: 7, updatedAt: new Date("2024-01-01T00:00:00Z") });
  await seed("feature", { ref: "feature", status: "failed", sha: "2".repeat(40), updatedAt: new Date("2024-02-01T00:00:00Z") });
  await seed("tag", { ref: "v1.0", tag: true, status: "success", sha: "1".repeat(40), updatedAt: new Date("2024-03-01T00:00:00Z") });
  await seed("child", { ref: "main", source: "parent_pipeline", parentPipelineId: ids.mainOld, status: "success" });
  await seed("mainNew", { ref: "main", status: "running", source: "web", name: "nightly", yamlErrors: "jobs config should contain at least one visible job" });
  await seed("otherProject", { projectId: 2, ref: "main" });
  const withCoverage = await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: ids.mainOld } });
  await seedJob(t.deps.prisma, withCoverage, { coverage: 80 });
  await seedJob(t.deps.prisma, withCoverage, { coverage: 90.5 });
});
afterAll(() => t?.close());

const list = async (req: Partial<ListPipelinesRequest__Output>) => {
  const res = await listPipelines(t.deps)({
    projectId: 1,
    scope: "",
    status: "",
    ref: "",
    sha: "",
    source: "",
    orderBy: "",
    sort: "",
    page: 0,
    perPage: 0,
    mergeRequestIid: 0,
    userId: 0,
    updatedAfter: "",
    updatedBefore: "",
    yamlErrors: false,
    name: "",
    createdAfter: "",
    createdBefore: "",
    ...req,
  });
  const pipelines = res.pipelines ?? [];
  return { ids: pipelines.map((p) => Number(p.id)), total: Number(res.total), pipelines };
};

it("lists the project's pipelines newest first, without child pipelines unless their source is asked for", async () => {
  expect(await list({})).toMatchObject({ ids: [ids.mainNew, ids.tag, ids.feature, ids.mainOld], total: 4 });
  expect((await list({ source: "parent_pipeline" })).ids).toEqual([ids.child]);
  expect((await list({ source: "web" })).ids).toEqual([ids.mainNew]);
});

it("pages with a total and orders by the allowed columns", async () => {
  expect(await list({ perPage: 3, page: 2 })).toMatchObject({ ids: [ids.mainOld], total: 4 });
  expect((await list({ sort: "asc" })).ids).toEqual([ids.mainOld, ids.feature, ids.tag, ids.mainNew]);
  expect((await list({ orderBy: "ref", sort: "asc" })).ids).toEqual([ids.feature, ids.mainOld, ids.mainNew, ids.tag]);
  expect((await list({ orderBy: "status", sort: "asc" })).ids).toEqual([ids.feature, ids.mainNew, ids.mainOld, ids.tag]);
  expect((await list({ orderBy: "user_id", sort: "desc" })).ids[0]).toBe(ids.mainOld);
  await expect(list({ orderBy: "sha" })).rejects.toMatchObject({ body: { error: "order_by does not have a valid value" } });
});

it("filters by scope", async () => {
  expect((await list({ scope: "running" })).ids).toEqual([ids.mainNew]);
  expect((await list({ scope: "pending" })).ids).toEqual([]);
  expect((await list({ scope: "finished" })).ids).toEqual([ids.tag, ids.feature, ids.mainOld]);
  expect((await list({ scope: "branches" })).ids).toEqual([ids.mainNew, ids.feature]);
  expect((await list({ scope: "tags" })).ids).toEqual([ids.tag]);
  await expect(list({ scope: "mine" })).rejects.toMatchObject({ body: { error: "scope does not have a valid value" } });
});

it("filters by status, ref, sha, name, user, configuration errors and times", async () => {
  expect((await list({ status: "failed" })).ids).toEqual([ids.feature]);
  expect((await list({ ref: "main" })).ids).toEqual([ids.mainNew, ids.mainOld]);
  expect((await list({ sha: "1".repeat(40) })).ids).toEqual([ids.tag, ids.mainOld]);
  expect((await list({ name: "nightly" })).ids).toEqual([ids.mainNew]);
  expect((await list({ userId: 7 })).ids).toEqual([ids.mainOld]);
  expect((await list({ yamlErrors: true })).ids).toEqual([ids.mainNew]);
  expect((await list({ updatedAfter: "2024-01-15T00:00:00Z", updatedBefore: "2024-02-15T00:00:00Z" })).ids).toEqual([ids.feature]);
  expect((await list({ updatedBefore: "2024-01-01T00:00:00Z" })).ids).toEqual([]);
  expect((await list({ createdBefore: "2000-01-01T00:00:00Z" })).ids).toEqual([]);
  expect((await list({ createdAfter: "2000-01-01T00:00:00Z" })).total).toBe(4);
  await expect(list({ status: "done" })).rejects.toMatchObject({ body: { error: "status does not have a valid value" } });
  await expect(list({ updatedAfter: "yesterday" })).rejects.toMatchObject({ body: { error: "updated_after is invalid" } });
});

it("carries each pipeline's coverage, the mean of its jobs'", async () => {
  const { pipelines } = await list({ ref: "main", sort: "asc" });
  expect(pipelines.map((p) => p.coverage)).toEqual([85.25, undefined]);
  expect(pipelines[1]).toMatchObject({ yamlErrors: "jobs config should contain at least one visible job", name: "nightly", source: "web" });
});
