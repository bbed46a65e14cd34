import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenGroupLink } from "./add-job-token-group-link.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_add_group")));
afterAll(() => t?.close());

it("adds a group once; a duplicate is 400 with GitLab's message", async () => {
  const add = addJobTokenGroupLink(t.deps);
  expect(await add({ projectId: 1, targetId: 20 })).toEqual({ sourceProjectId: 1, targetId: 20 });
  await expect(add({ projectId: 1, targetId: 20 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Target group is already in the job token scope" },
  });
  expect(await t.deps.prisma.jobTokenGroupLink.count()).toBe(1);
});
