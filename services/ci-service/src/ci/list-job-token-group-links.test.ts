import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { addJobTokenGroupLink } from "./add-job-token-group-link.ts";
import { listJobTokenGroupLinks } from "./list-job-token-group-links.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_list_groups")));
afterAll(() => t?.close());

it("lists the allowed groups oldest first, in pages", async () => {
  for (const target of [30, 10, 20]) await addJobTokenGroupLink(t.deps)({ projectId: 1, targetId: target });
  expect(await listJobTokenGroupLinks(t.deps)({ projectId: 1, page: 0, perPage: 0 })).toEqual({ targetIds: [30, 10, 20], total: 3 });
  expect(await listJobTokenGroupLinks(t.deps)({ projectId: 1, page: 2, perPage: 2 })).toEqual({ targetIds: [20], total: 3 });
  expect(await listJobTokenGroupLinks(t.deps)({ projectId: 2, page: 1, perPage: 20 })).toEqual({ targetIds: [], total: 0 });
});
