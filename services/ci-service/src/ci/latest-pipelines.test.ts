import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { seedPipeline } from "../../test/rows.ts";
import { latestPipelines } from "./latest-pipelines.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_latest_pipelines")));
afterAll(() => t?.close());

it("answers the newest pipeline of each commit, optionally on one ref, and nothing for commits without one", async () => {
  const a = "a".repeat(40);
  const b = "b".repeat(40);
  const oldA = await seedPipeline(t.deps.prisma, { sha: a, ref: "main" });
  const newA = await seedPipeline(t.deps.prisma, { sha: a, ref: "feature", status: "running" });
  const onlyB = await seedPipeline(t.deps.prisma, { sha: b, ref: "main", status: "failed" });
  await seedPipeline(t.deps.prisma, { sha: b, projectId: 2 });
  const latest = latestPipelines(t.deps);
  const shaToId = async (shas: string[], ref = "") =>
    Object.fromEntries(((await latest({ projectId: 1, shas, ref })).pipelines ?? []).map((p) => [p.sha, Number(p.id)]));
  expect(await shaToId([a, b, "c".repeat(40)])).toEqual({ [a]: newA.id, [b]: onlyB.id });
  expect(await shaToId([a, b], "main")).toEqual({ [a]: oldA.id, [b]: onlyB.id });
  expect(await shaToId([b], "feature")).toEqual({});
  expect(await shaToId([])).toEqual({});
  expect((await latest({ projectId: 1, shas: [a], ref: "" })).pipelines?.[0]).toMatchObject({ status: "running", ref: "feature" });
});
