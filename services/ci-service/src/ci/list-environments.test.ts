import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployments } from "../../test/deployments.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { listEnvironments } from "./list-environments.ts";

let t: TestContext;
let projectId: number;
beforeAll(async () => {
  t = await setUp("ci_list_environments", { repo: true });
  projectId = await seedDeployments(t);
}, 60_000);
afterAll(() => t.close());

const envs = async (req: Partial<Parameters<ReturnType<typeof listEnvironments>>[0]>) => {
  const res = await listEnvironments(t.deps)({ projectId, name: "", search: "", states: "", page: 0, perPage: 0, ...req });
  return { environments: res.environments ?? [] };
};

describe("ListEnvironments", () => {
  it("lists with name, search and states filters", async () => {
    expect((await envs({})).environments.map((e) => [e.name, e.tier, e.state])).toEqual([
      ["production", "production", "available"],
      ["staging", "staging", "available"],
      ["review/app", "development", "available"],
    ]);
    expect((await envs({ name: "staging" })).environments.map((e) => e.name)).toEqual(["staging"]);
    expect((await envs({ search: "PROD" })).environments.map((e) => e.name)).toEqual(["production"]);
    expect((await envs({ states: "stopped" })).environments).toEqual([]);
    await expect(envs({ states: "gone" })).rejects.toMatchObject({ code: 3 });
  });
});
