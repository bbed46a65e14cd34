import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployments } from "../../test/deployments.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { getEnvironment } from "./get-environment.ts";
import { listEnvironments } from "./list-environments.ts";

let t: TestContext;
let projectId: number;
beforeAll(async () => {
  t = await setUp("ci_get_environment", { repo: true });
  projectId = await seedDeployments(t);
}, 60_000);
afterAll(() => t.close());

const envs = async (req: Partial<Parameters<ReturnType<typeof listEnvironments>>[0]>) => {
  const res = await listEnvironments(t.deps)({ projectId, name: "", search: "", states: "", page: 0, perPage: 0, ...req });
  return { environments: res.environments ?? [] };
};

describe("GetEnvironment", () => {
  it("shows one environment with its last successful deployment; 404 for other projects' and unknown ones", async () => {
    const [production, staging] = (await envs({})).environments;
    const shown = await getEnvironment(t.deps)({ projectId, environmentId: Number(production!.id) });
    expect(shown).toMatchObject({
      name: "production",
      externalUrl: "https://prod.example.com",
      lastDeployment: { iid: 1, status: "success", deployable: { name: "prod" } },
    });
    expect((await getEnvironment(t.deps)({ projectId, environmentId: Number(staging!.id) })).lastDeployment).toBeUndefined();
    await expect(getEnvironment(t.deps)({ projectId: projectId + 1, environmentId: Number(production!.id) })).rejects.toMatchObject({ code: 5 });
    await expect(getEnvironment(t.deps)({ projectId, environmentId: 0 })).rejects.toMatchObject({ code: 5 });
  });
});
