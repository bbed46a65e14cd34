import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedPipeline } from "../../test/rows.ts";
import { getPipeline } from "./get-pipeline.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_get_pipeline")));
afterAll(() => t?.close());

it("answers a pipeline of the project, child pipelines included", async () => {
  const parent = await seedPipeline(t.deps.prisma, { projectId: 3, startedAt: new Date("2024-05-01T10:00:10Z"), createdAt: new Date("2024-05-01T10:00:00Z") });
  const child = await seedPipeline(t.deps.prisma, { projectId: 3, source: "parent_pipeline", parentPipelineId: parent.id });
  const get = getPipeline(t.deps);
  expect(await get({ projectId: 3, pipelineId: parent.id, userId: 0 })).toMatchObject({
    id: parent.id,
    iid: parent.iid,
    projectId: 3,
    ref: "main",
    status: "created",
    createdAt: "2024-05-01T10:00:00.000Z",
    startedAt: "2024-05-01T10:00:10.000Z",
    queuedDuration: 10,
    parentPipelineId: 0,
  });
  expect(await get({ projectId: 3, pipelineId: child.id, userId: 0 })).toMatchObject({ id: child.id, parentPipelineId: parent.id });
});

it("answers GitLab's 404 for another project's pipeline and for ids no row has", async () => {
  const other = await seedPipeline(t.deps.prisma, { projectId: 4 });
  const get = getPipeline(t.deps);
  for (const pipelineId of [other.id, 999_999, 0, 2 ** 40]) {
    await expect(get({ projectId: 3, pipelineId, userId: 0 })).rejects.toMatchObject({ code: 5, body: { message: "404 Not found" } });
  }
});
