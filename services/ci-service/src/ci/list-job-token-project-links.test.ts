import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenProjectLink } from "./add-job-token-project-link.ts";
import { listJobTokenProjectLinks } from "./list-job-token-project-links.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_list_projects")));
afterAll(() => t?.close());

it("lists the project itself first, then its allowlist oldest first, in pages", async () => {
  for (const target of [7, 5, 9]) await addJobTokenProjectLink(t.deps)({ projectId: 1, targetId: target });
  await addJobTokenProjectLink(t.deps)({ projectId: 2, targetId: 1 }); // another project's list
  const list = listJobTokenProjectLinks(t.deps);
  expect(await list({ projectId: 1, page: 0, perPage: 0 })).toEqual({ targetIds: [1, 7, 5, 9], total: 4 });
  expect(await list({ projectId: 1, page: 1, perPage: 3 })).toEqual({ targetIds: [1, 7, 5], total: 4 });
  expect(await list({ projectId: 1, page: 2, perPage: 3 })).toEqual({ targetIds: [9], total: 4 });
  expect(await list({ projectId: 1, page: 2, perPage: 2 })).toEqual({ targetIds: [5, 9], total: 4 });
  expect(await list({ projectId: 3, page: 1, perPage: 20 })).toEqual({ targetIds: [3], total: 1 });
});
