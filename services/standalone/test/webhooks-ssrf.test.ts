// Without QUARRY_ALLOW_LOCAL_REQUESTS, hook URLs on loopback, link-local and private networks are refused;
// a host name that does not resolve is saved (GitLab does not check DNS rebinding at save) and refused at delivery.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack(undefined, { allowLocalRequests: false });
});
afterAll(() => s?.destroy());

describe("hook URLs without local requests allowed", () => {
  it("refuses loopback, link-local and private addresses with GitLab's messages; nothing is stored", async () => {
    const project = (await (await s.api("/projects", { method: "POST", json: { name: "guarded" } })).json()) as { id: number };
    const group = (await (await s.api("/groups", { method: "POST", json: { name: "Guarded", path: "guarded" } })).json()) as { id: number };
    const cases: [string, string][] = [
      ["http://127.0.0.1:8080/hook", "is blocked: Requests to localhost are not allowed"],
      ["http://localhost/hook", "is blocked: Requests to localhost are not allowed"],
      ["http://[::1]/hook", "is blocked: Requests to localhost are not allowed"],
      ["http://169.254.169.254/latest/meta-data", "is blocked: Requests to the link local network are not allowed"],
      ["http://10.1.2.3/hook", "is blocked: Requests to the local network are not allowed"],
      ["http://192.168.0.10/hook", "is blocked: Requests to the local network are not allowed"],
    ];
    for (const [url, message] of cases) {
      for (const base of [`/projects/${project.id}/hooks`, `/groups/${group.id}/hooks`]) {
        const res = await s.api(base, { method: "POST", json: { url } });
        expect(res.status, `${base} ${url}`).toBe(400);
        expect(await res.json()).toEqual({ message: { url: [message] } });
      }
    }
    // A URL variable cannot smuggle a local host in either.
    const res = await s.api(`/projects/${project.id}/hooks`, {
      method: "POST",
      json: { url: "http://{host}/x", url_variables: [{ key: "host", value: "127.0.0.1" }] },
    });
    expect(res.status).toBe(400);
    expect(await (await s.api(`/projects/${project.id}/hooks`)).json()).toEqual([]);
    expect(await (await s.api(`/groups/${group.id}/hooks`)).json()).toEqual([]);
  });

  it("accepts a host that does not resolve at save time, as GitLab does; delivering to it is still blocked", async () => {
    const project = (await (await s.api("/projects", { method: "POST", json: { name: "unresolved", initialize_with_readme: true } })).json()) as { id: number };
    const group = (await (await s.api("/groups", { method: "POST", json: { name: "Unresolved", path: "unresolved" } })).json()) as { id: number };
    for (const base of [`/projects/${project.id}/hooks`, `/groups/${group.id}/hooks`]) {
      const res = await s.api(base, { method: "POST", json: { url: "http://hook.url" } });
      expect(res.status, base).toBe(201);
      expect(await res.json()).toMatchObject({ url: "http://hook.url" });
    }
    // Delivered to a name that can never resolve (RFC 2606), so that no request can leave this machine.
    const hook = (await (await s.api(`/projects/${project.id}/hooks`, { method: "POST", json: { url: "http://hook.invalid/x" } })).json()) as { id: number };
    const test = await s.api(`/projects/${project.id}/hooks/${hook.id}/test/push_events`, { method: "POST" });
    expect(test.status).toBe(422);
    expect(await test.json()).toEqual({ message: "URL is blocked: Host cannot be resolved or invalid" });
  });

  it("refuses an update that points a hook at a local address", async () => {
    const project = (await (await s.api("/projects", { method: "POST", json: { name: "guarded-update" } })).json()) as { id: number };
    const created = await s.api(`/projects/${project.id}/hooks`, { method: "POST", json: { url: "http://93.184.215.14/hook" } });
    expect(created.status).toBe(201);
    const hook = (await created.json()) as { id: number };
    const res = await s.api(`/projects/${project.id}/hooks/${hook.id}`, { method: "PUT", json: { url: "http://127.0.0.1/hook" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    expect(((await (await s.api(`/projects/${project.id}/hooks/${hook.id}`)).json()) as { url: string }).url).toBe("http://93.184.215.14/hook");
  });
});
