// JSON answers carry `Content-Type: application/json` exactly, as GitLab sends it: python-gitlab
// decodes a body only when the header equals that string. Non-JSON answers keep their own types.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
beforeAll(async () => {
  s = await startTestStack();
  projectId = (await s.gitlab().Projects.create({ name: "typed", initializeWithReadme: true })).id;
}, 60_000);
afterAll(() => s?.destroy());

const typeOf = (res: Response) => res.headers.get("content-type");

describe("Content-Type of JSON answers", () => {
  it("is exactly application/json on success, list, create and delete-less answers", async () => {
    const user = await s.api("/user");
    expect(user.status).toBe(200);
    expect(typeOf(user)).toBe("application/json");
    expect(await user.json()).toMatchObject({ username: "root" });

    const list = await s.api("/projects");
    expect([list.status, typeOf(list)]).toEqual([200, "application/json"]);

    const created = await s.api("/groups", { method: "POST", json: { name: "Typed", path: "typed-group" } });
    expect([created.status, typeOf(created)]).toEqual([201, "application/json"]);

    const version = await s.api("/version");
    expect([version.status, typeOf(version)]).toEqual([200, "application/json"]);
  });

  it("is exactly application/json on errors: auth, validation, unknown record, unknown route, bad body", async () => {
    const unauthorized = await s.api("/user", { token: null });
    expect([unauthorized.status, typeOf(unauthorized), await unauthorized.json()]).toEqual([401, "application/json", { message: "401 Unauthorized" }]);

    const missing = await s.api("/groups", { method: "POST", json: {} });
    expect([missing.status, typeOf(missing)]).toEqual([400, "application/json"]);

    const unknown = await s.api("/projects/999999");
    expect([unknown.status, typeOf(unknown), await unknown.json()]).toEqual([404, "application/json", { message: "404 Project Not Found" }]);

    const noRoute = await s.api("/no-such-route");
    expect([noRoute.status, typeOf(noRoute), await noRoute.json()]).toEqual([404, "application/json", { error: "404 Not Found" }]);

    const badJson = await s.api("/groups", { method: "POST", body: "{", headers: { "Content-Type": "application/json" } });
    expect([badJson.status, typeOf(badJson)]).toEqual([400, "application/json"]);
  });

  it("is exactly application/json on HEAD answers of JSON routes", async () => {
    const head = await s.api("/user", { method: "HEAD" });
    expect([head.status, typeOf(head)]).toEqual([200, "application/json"]);
    const headMissing = await s.api("/projects/999999", { method: "HEAD" });
    expect([headMissing.status, typeOf(headMissing)]).toEqual([404, "application/json"]);
    for (const route of ["/repository/files/README.md?ref=main", "/repository/files/README.md/blame?ref=main"]) {
      const file = await s.api(`/projects/${projectId}${route}`, { method: "HEAD" });
      expect([route, file.status, typeOf(file), file.headers.get("x-gitlab-file-name")]).toEqual([route, 200, "application/json", "README.md"]);
    }
  });

  it("leaves raw files and plain-text answers alone", async () => {
    const raw = await s.api(`/projects/${projectId}/repository/files/README.md/raw?ref=main`);
    expect([raw.status, typeOf(raw)]).toEqual([200, "text/plain; charset=utf-8"]);
    const refs = await fetch(`${s.url}/root/typed.git/info/refs?service=git-upload-pack`, {
      headers: { Authorization: `Basic ${Buffer.from(`root:${s.rootToken}`).toString("base64")}` },
    });
    expect([refs.status, typeOf(refs)]).toEqual([200, "application/x-git-upload-pack-advertisement"]);
  });
});
