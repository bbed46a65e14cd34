import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployments } from "../../test/deployments.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { getDeployment } from "./get-deployment.ts";

let t: TestContext;
let projectId: number;
beforeAll(async () => {
  t = await setUp("ci_get_deployment", { repo: true });
  projectId = await seedDeployments(t);
}, 60_000);
afterAll(() => t.close());

describe("GetDeployment", () => {
  it("shows one deployment with its environment and job; 404 for other projects' and unknown ones", async () => {
    const first = await t.deps.prisma.deployment.findFirstOrThrow({ where: { projectId, iid: 1 } });
    expect(await getDeployment(t.deps)({ projectId, deploymentId: first.id })).toMatchObject({
      iid: 1,
      status: "success",
      ref: "main",
      environment: { name: "production" },
      deployable: { name: "prod", status: "success" },
    });
    await expect(getDeployment(t.deps)({ projectId: projectId + 1, deploymentId: first.id })).rejects.toMatchObject({ code: 5 });
    await expect(getDeployment(t.deps)({ projectId, deploymentId: 999_999 })).rejects.toMatchObject({ code: 5 });
  });
});
