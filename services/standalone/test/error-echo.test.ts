// Errors that echo what the caller sent (a ref, a tag, a pattern) must travel whatever the text:
// non-ASCII once crashed the whole embedded process, and a huge value stalled repo-service's
// connection for every caller until the deadline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let user: Awaited<ReturnType<typeof createUserWithToken>>;
let projectId: number;

beforeAll(async () => {
  s = await startTestStack();
  user = await createUserWithToken(s);
  const res = await s.api("/projects", { method: "POST", token: user.token, json: { name: "echoes", initialize_with_readme: true } });
  projectId = ((await res.json()) as { id: number }).id;
});
afterAll(() => s?.destroy());

const post = (suffix: string, json: unknown) => s.api(`/projects/${projectId}${suffix}`, { method: "POST", token: user.token, json });

async function expectAlive() {
  const res = await s.api(`/projects/${projectId}`, { token: user.token });
  expect(res.status).toBe(200);
}

describe("errors that echo the caller's text", () => {
  it("answers a tag on a non-ASCII ref with the spec's 405, and the server lives on", async () => {
    const res = await post("/repository/tags", { tag_name: "t1", ref: "é" });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ message: "Target é is invalid" });
    await expectAlive();
  });

  it("answers a branch from a non-ASCII ref with 400", async () => {
    const res = await post("/repository/branches", { branch: "x", ref: "日本" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Invalid reference name: 日本" });
    await expectAlive();
  });

  it("answers a non-ASCII tag created twice with 405 naming it", async () => {
    expect((await post("/repository/tags", { tag_name: "café", ref: "main" })).status).toBe(201);
    const again = await post("/repository/tags", { tag_name: "café", ref: "main" });
    expect(again.status).toBe(405);
    expect(await again.json()).toEqual({ message: "Tag café already exists" });
    await expectAlive();
  });

  it("answers a non-ASCII protected branch pattern given twice with 409 naming it", async () => {
    expect((await post("/protected_branches", { name: "fé*" })).status).toBe(201);
    const again = await post("/protected_branches", { name: "fé*" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: "Protected branch 'fé*' already exists" });
    await expectAlive();
  });

  it("refuses a branch whose name has a part longer than a file name can be, on every write (was a 500)", async () => {
    const long = "a".repeat(256);
    for (const branch of [long, `x/${long}`]) {
      const created = await post("/repository/branches", { branch, ref: "main" });
      expect(created.status).toBe(400);
      expect(await created.json()).toEqual({ message: "Branch name is invalid" });
      const file = await post("/repository/files/x.txt", { branch, start_branch: "main", content: "x", commit_message: "m" });
      expect(file.status).toBe(400);
      const commit = await post("/repository/commits", {
        branch,
        start_branch: "main",
        commit_message: "m",
        actions: [{ action: "create", file_path: "y.txt", content: "y" }],
      });
      expect(commit.status).toBe(400);
    }
    const tag = await post("/repository/tags", { tag_name: "t".repeat(256), ref: "main" });
    expect(tag.status).toBe(405);
    expect(await tag.json()).toEqual({ message: "Tag name invalid" });
    await expectAlive();
  });

  it("answers a huge ref at once with a bounded 4xx while other callers go on", async () => {
    const huge = "r".repeat(100_000);
    const [tag, branch, ...reads] = await Promise.all([
      post("/repository/tags", { tag_name: "big", ref: huge }),
      post("/repository/branches", { branch: "big", ref: huge }),
      ...Array.from({ length: 5 }, () => s.api(`/projects/${projectId}/repository/branches`, { token: user.token })),
    ]);
    for (const res of [tag!, branch!]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect((await res.text()).length).toBeLessThan(4096);
    }
    for (const res of reads) expect(res.status).toBe(200);
    await expectAlive();
  });
});
