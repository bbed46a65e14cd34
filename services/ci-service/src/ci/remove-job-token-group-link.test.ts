import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenGroupLink } from "./add-job-token-group-link.ts";
import { removeJobTokenGroupLink } from "./remove-job-token-group-link.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_remove_group")));
afterAll(() => t?.close());

it("removes a listed group; an unlisted one is 400", async () => {
  await addJobTokenGroupLink(t.deps)({ projectId: 1, targetId: 20 });
  expect(await removeJobTokenGroupLink(t.deps)({ projectId: 1, targetId: 20 })).toEqual({});
  await expect(removeJobTokenGroupLink(t.deps)({ projectId: 1, targetId: 20 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Target group is not in the job token scope" },
  });
});
