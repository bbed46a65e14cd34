import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecrets } from "./hook-common.ts";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("UpdateHook", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_update");
  });
  afterAll(() => f?.stop());

  const secretsOf = async (id: number) => openSecrets(f.svc.deps, await f.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id } }));
  const create = async () =>
    Number(
      (
        await f.client.CreateHook({
          owner: { projectId: 8 },
          input: { url: "http://127.0.0.1:9/{v}", token: "t1", customHeaders: [{ key: "X-H", value: "h1" }], urlVariables: [{ key: "v", value: "x" }] },
        })
      ).id,
    );

  it("changes only what is given and keeps omitted secrets", async () => {
    const id = await create();
    const hook = await f.client.UpdateHook({ owner: { projectId: 8 }, hookId: id, input: { name: "n", tagPushEvents: true } });
    expect(hook).toMatchObject({
      name: "n",
      tagPushEvents: true,
      pushEvents: true,
      url: "http://127.0.0.1:9/{v}",
      customHeaderKeys: ["X-H"],
      urlVariableKeys: ["v"],
    });
    expect(await secretsOf(id)).toEqual({ token: "t1", headers: { "X-H": "h1" }, variables: { v: "x" } });
    // Given headers and variables are merged by name (GitLab's update_hook_params); an empty token clears it.
    const merged = await f.client.UpdateHook({
      owner: { projectId: 8 },
      hookId: id,
      input: {
        token: "",
        setCustomHeaders: true,
        customHeaders: [
          { key: "X-New", value: "n" },
          { key: "X-H", value: "h2" },
        ],
        setUrlVariables: true,
        urlVariables: [{ key: "w", value: "z" }],
      },
    });
    expect(merged).toMatchObject({ customHeaderKeys: ["X-H", "X-New"], urlVariableKeys: ["v", "w"] });
    expect(await secretsOf(id)).toEqual({ token: null, headers: { "X-H": "h2", "X-New": "n" }, variables: { v: "x", w: "z" } });
  });

  it("a new URL drops the token and URL variables unless they are given again", async () => {
    const id = await create();
    await f.client.UpdateHook({ owner: { projectId: 8 }, hookId: id, input: { url: "http://127.0.0.1:9/other" } });
    expect(await secretsOf(id)).toEqual({ token: null, headers: { "X-H": "h1" }, variables: {} });
    const id2 = await create();
    const err = await f.client
      .UpdateHook({ owner: { projectId: 8 }, hookId: id2, input: { url: "http://127.0.0.1:9/{v}/new" } })
      .catch((e: { code: number; details: string }) => e);
    expect((err as { code: number }).code).toBe(status.INVALID_ARGUMENT);
    await f.client.UpdateHook({
      owner: { projectId: 8 },
      hookId: id2,
      input: { url: "http://127.0.0.1:9/{v}/new", token: "t2", setUrlVariables: true, urlVariables: [{ key: "v", value: "y" }] },
    });
    expect(await secretsOf(id2)).toEqual({ token: "t2", headers: { "X-H": "h1" }, variables: { v: "y" } });
  });

  it("re-enables a disabled hook", async () => {
    const id = await create();
    await f.svc.deps.prisma.webHook.update({ where: { id }, data: { recentFailures: 40, permanentlyDisabled: true } });
    expect((await f.client.GetHook({ owner: { projectId: 8 }, hookId: id })).alertStatus).toBe("disabled");
    const hook = await f.client.UpdateHook({ owner: { projectId: 8 }, hookId: id, input: {} });
    expect(hook.alertStatus).toBe("executable");
    expect(await f.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id } })).toMatchObject({
      recentFailures: 0,
      backoffCount: 0,
      permanentlyDisabled: false,
    });
  });

  it("is NOT_FOUND for another owner's hook", async () => {
    const id = await create();
    const err = await f.client.UpdateHook({ owner: { projectId: 9 }, hookId: id, input: { name: "x" } }).catch((e: { code: number }) => e);
    expect((err as { code: number }).code).toBe(status.NOT_FOUND);
  });
});
