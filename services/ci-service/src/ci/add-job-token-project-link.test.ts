import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenProjectLink } from "./add-job-token-project-link.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_add_project")));
afterAll(() => t?.close());

it("adds a project once; a duplicate or the project itself is 400 with GitLab's message", async () => {
  const add = addJobTokenProjectLink(t.deps);
  expect(await add({ projectId: 1, targetId: 2 })).toEqual({ sourceProjectId: 1, targetId: 2 });
  await expect(add({ projectId: 1, targetId: 2 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Target project is already in the job token scope" },
  });
  await expect(add({ projectId: 1, targetId: 1 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Validation failed: Target project can't be the same as the source project" },
  });
  await expect(add({ projectId: 1, targetId: -4 })).rejects.toMatchObject({ body: { error: "target_project_id is invalid" } });
  expect(await t.deps.prisma.jobTokenProjectLink.count()).toBe(1);
});
