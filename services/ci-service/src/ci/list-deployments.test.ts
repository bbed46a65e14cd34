import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployments } from "../../test/deployments.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { listDeployments } from "./list-deployments.ts";

let t: TestContext;
let projectId: number;
beforeAll(async () => {
  t = await setUp("ci_list_deployments", { repo: true });
  projectId = await seedDeployments(t);
}, 60_000);
afterAll(() => t.close());

const list = async (req: Partial<Parameters<ReturnType<typeof listDeployments>>[0]>) => {
  const res = await listDeployments(t.deps)({
    projectId,
    orderBy: "",
    sort: "",
    updatedAfter: "",
    updatedBefore: "",
    finishedAfter: "",
    finishedBefore: "",
    environment: "",
    status: "",
    page: 0,
    perPage: 0,
    ...req,
  });
  return { total: Number(res.total), deployments: res.deployments ?? [] };
};
const refusal = (req: Partial<Parameters<ReturnType<typeof listDeployments>>[0]>) =>
  list(req).then(
    () => null,
    (e: { message?: string }) => e.message,
  );

describe("ListDeployments", () => {
  it("lists by id ascending with environment and job, filtered by environment and status", async () => {
    const all = await list({});
    expect(Number(all.total)).toBe(3);
    expect(all.deployments.map((d) => [d.iid, d.environment?.name, d.status, d.deployable?.name])).toEqual([
      [1, "production", "success", "prod"],
      [2, "staging", "failed", "staging"],
      [3, "review/app", "created", "review"],
    ]);
    expect((await list({ environment: "staging" })).deployments.map((d) => d.iid)).toEqual([2]);
    expect((await list({ status: "success" })).deployments.map((d) => d.iid)).toEqual([1]);
    expect((await list({ orderBy: "iid", sort: "desc" })).deployments.map((d) => d.iid)).toEqual([3, 2, 1]);
  });

  it("answers what was deployed to an environment in a time window", async () => {
    const window = { status: "success", orderBy: "finished_at", environment: "production" };
    const hit = await list({ ...window, finishedAfter: "2000-01-01T00:00:00Z", finishedBefore: "2999-01-01T00:00:00Z" });
    expect(hit.deployments.map((d) => [d.environment?.name, d.ref, d.sha?.length])).toEqual([["production", "main", 40]]);
    expect((await list({ ...window, finishedBefore: "2000-01-01T00:00:00Z" })).deployments).toEqual([]);
  });

  it("refuses what GitLab's DeploymentsFinder refuses", async () => {
    expect(await refusal({ finishedAfter: "2000-01-01T00:00:00Z", status: "success" })).toMatch(
      /`finished_at` filter and `finished_at` sorting must be paired/,
    );
    expect(await refusal({ finishedAfter: "2000-01-01T00:00:00Z", orderBy: "finished_at" })).toMatch(/must be combined with `success` status filter/);
    expect(await refusal({ status: "done" })).toMatch(/status does not have a valid value/);
    expect(await refusal({ orderBy: "sha" })).toMatch(/order_by does not have a valid value/);
  });
});
