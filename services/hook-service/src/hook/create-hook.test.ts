import { ERROR_BODY_KEY } from "@quarry/grpc";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

const errorOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { code: number; metadata: { get(k: string): unknown[] } } | null;
const body = (e: { metadata: { get(k: string): unknown[] } } | null) => JSON.parse(String(e!.metadata.get(ERROR_BODY_KEY)[0]));

describe("CreateHook", () => {
  let f: Fixture;
  let guarded: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_create");
    guarded = await startFixture("hook_create_guarded", { allowLocalRequests: false });
  });
  afterAll(async () => {
    await f?.stop();
    await guarded?.stop();
  });

  it("creates a project hook with defaults; secrets are sealed, never returned", async () => {
    const hook = await f.client.CreateHook({
      owner: { projectId: 5 },
      input: {
        url: "http://127.0.0.1:9/{v}",
        token: "tok-plain",
        customHeaders: [{ key: "X-A", value: "header-plain" }],
        urlVariables: [{ key: "v", value: "variable-plain" }],
        subgroupEvents: true, // not a project hook switch: ignored
      },
    });
    expect(hook).toMatchObject({
      projectId: 5,
      groupId: 0,
      url: "http://127.0.0.1:9/{v}",
      pushEvents: true,
      tagPushEvents: false,
      subgroupEvents: false,
      enableSslVerification: true,
      branchFilterStrategy: "wildcard",
      alertStatus: "executable",
      disabledUntil: "",
      urlVariableKeys: ["v"],
      customHeaderKeys: ["X-A"],
      tokenSet: true,
    });
    expect(hook.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(hook)).not.toMatch(/plain/);
    const row = await f.svc.deps.prisma.webHook.findUniqueOrThrow({ where: { id: Number(hook.id) } });
    expect(Buffer.from(row.encryptedSecrets!).toString("latin1")).not.toMatch(/plain/);
  });

  it("creates a group hook with the group switches", async () => {
    const hook = await f.client.CreateHook({ owner: { groupId: 3 }, input: { url: "http://127.0.0.1:9/", memberEvents: true, pushEvents: false } });
    expect(hook).toMatchObject({ groupId: 3, projectId: 0, memberEvents: true, pushEvents: false, tokenSet: false });
  });

  it.each([
    [{ url: "" }, { url: ["can't be blank"] }],
    [{ url: "gopher://x" }, { url: ["is blocked: Only allowed schemes are http, https"] }],
    [{ url: "http://127.0.0.1/{a}/{b}", urlVariables: [{ key: "a", value: "1" }] }, { url: ['Invalid URL template. Missing keys: ["b"]'] }],
    [{ url: "http://127.0.0.1/", customHeaders: [{ key: "Bad Header", value: "v" }] }, { custom_headers: ["must be a valid json schema"] }],
    [{ url: "http://127.0.0.1/", urlVariables: [{ key: "a", value: "" }] }, { url_variables: ["must be a valid json schema"] }],
    [
      { url: "http://127.0.0.1/", branchFilterStrategy: "regex", pushEventsBranchFilter: "[" },
      { push_events_branch_filter: ["not valid RE2 syntax: missing ]: ["] },
    ],
    // JavaScript would take these; RE2 (GitLab's engine, linear time) has no backreferences or lookahead.
    [
      { url: "http://127.0.0.1/", branchFilterStrategy: "regex", pushEventsBranchFilter: "^(a)\\1$" },
      { push_events_branch_filter: ["not valid RE2 syntax: invalid escape sequence: \\1"] },
    ],
    [
      { url: "http://127.0.0.1/", branchFilterStrategy: "regex", pushEventsBranchFilter: "^(?!main)" },
      { push_events_branch_filter: ["not valid RE2 syntax: invalid perl operator: (?!"] },
    ],
    [{ url: "http://127.0.0.1/", branchFilterStrategy: "some" }, { branch_filter_strategy: ["is not included in the list"] }],
  ])("refuses %j", async (input, message) => {
    const before = await f.svc.deps.prisma.webHook.count();
    const err = await errorOf(f.client.CreateHook({ owner: { projectId: 5 }, input: input as never }));
    expect(err?.code).toBe(status.INVALID_ARGUMENT);
    expect(body(err)).toEqual({ message });
    expect(await f.svc.deps.prisma.webHook.count()).toBe(before);
  });

  it("refuses local addresses unless local requests are allowed", async () => {
    const err = await errorOf(guarded.client.CreateHook({ owner: { projectId: 5 }, input: { url: "http://localhost:9/" } }));
    expect(body(err)).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    const viaVariable = await errorOf(
      guarded.client.CreateHook({ owner: { projectId: 5 }, input: { url: "http://{h}/", urlVariables: [{ key: "h", value: "10.0.0.1" }] } }),
    );
    expect(body(viaVariable)).toEqual({ message: { url: ["is blocked: Requests to the local network are not allowed"] } });
  });

  it("accepts a host name that does not resolve (GitLab saves without DNS rebinding protection); a delivery to it is blocked", async () => {
    // .invalid never resolves (RFC 2606).
    const hook = await guarded.client.CreateHook({ owner: { projectId: 5 }, input: { url: "http://hook.invalid/x" } });
    expect(hook).toMatchObject({ projectId: 5, url: "http://hook.invalid/x" });
    const updated = await guarded.client.UpdateHook({ owner: { projectId: 5 }, hookId: hook.id, input: { url: "http://other.invalid/y" } });
    expect(updated.url).toBe("http://other.invalid/y");
    const delivery = await errorOf(guarded.client.TestHook({ owner: { projectId: 5 }, hookId: hook.id, trigger: "push_events", payloadJson: "{}", userId: 1 }));
    expect(body(delivery)).toEqual({ message: "URL is blocked: Host cannot be resolved or invalid" });
  });

  it.each([
    ["http://192.168.1.1/", "is blocked: Requests to the local network are not allowed"],
    ["http://[fe80::1]/", "is blocked: Requests to the link local network are not allowed"],
    ["http://0.0.0.0/", "is blocked: Requests to localhost are not allowed"],
  ])("still refuses the literal local address %s without asking DNS", async (url, message) => {
    expect(body(await errorOf(guarded.client.CreateHook({ owner: { projectId: 5 }, input: { url } })))).toEqual({ message: { url: [message] } });
  });

  it("needs exactly one owner", async () => {
    expect((await errorOf(f.client.CreateHook({ owner: {}, input: { url: "http://127.0.0.1/" } })))?.code).toBe(status.INVALID_ARGUMENT);
    expect((await errorOf(f.client.CreateHook({ owner: { projectId: 1, groupId: 1 }, input: { url: "http://127.0.0.1/" } })))?.code).toBe(
      status.INVALID_ARGUMENT,
    );
  });
});
