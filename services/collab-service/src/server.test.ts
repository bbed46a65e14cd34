import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_server");
});
afterAll(() => t?.close());

it("listens on a picked port after migrating and serves CollabService over gRPC", async () => {
  expect(t.svc.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  const project = await t.project();
  const list = await t.client.ListLabels({ actor: t.admin, parent: { project: String(project.id) }, includeAncestorGroups: true });
  expect(list).toEqual({ labels: [], pageInfo: { total: 0, page: 1, perPage: 20 } });
});
