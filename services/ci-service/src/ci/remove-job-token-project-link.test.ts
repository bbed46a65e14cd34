import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenProjectLink } from "./add-job-token-project-link.ts";
import { removeJobTokenProjectLink } from "./remove-job-token-project-link.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_remove_project")));
afterAll(() => t?.close());

it("removes a listed project; an unlisted one or the project itself is 400", async () => {
  await addJobTokenProjectLink(t.deps)({ projectId: 1, targetId: 2 });
  const remove = removeJobTokenProjectLink(t.deps);
  expect(await remove({ projectId: 1, targetId: 2 })).toEqual({});
  await expect(remove({ projectId: 1, targetId: 2 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Target project is not in the job token scope" },
  });
  await expect(remove({ projectId: 1, targetId: 1 })).rejects.toMatchObject({
    body: { message: "400 Bad request - Source project cannot be removed from the job token scope" },
  });
});
