import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("ListHooks", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_list_hooks");
  });
  afterAll(() => f?.stop());

  it("lists one owner's hooks oldest first, paged, with the total", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(Number((await f.client.CreateHook({ owner: { projectId: 1 }, input: { url: `http://127.0.0.1:9/${i}` } })).id));
    await f.client.CreateHook({ owner: { projectId: 2 }, input: { url: "http://127.0.0.1:9/other" } });
    await f.client.CreateHook({ owner: { groupId: 1 }, input: { url: "http://127.0.0.1:9/group" } });
    const all = await f.client.ListHooks({ owner: { projectId: 1 } });
    expect(all.total).toBe(5);
    expect(all.hooks.map((h) => Number(h.id))).toEqual(ids);
    const page = await f.client.ListHooks({ owner: { projectId: 1 }, page: 2, perPage: 2 });
    expect(page.hooks.map((h) => Number(h.id))).toEqual(ids.slice(2, 4));
    expect((await f.client.ListHooks({ owner: { groupId: 1 } })).hooks.map((h) => h.url)).toEqual(["http://127.0.0.1:9/group"]);
    expect(await f.client.ListHooks({ owner: { groupId: 2 } })).toEqual({ hooks: [], total: 0 });
  });
});
