// The embedded mode on both cores (issue 18): `pnpm start` runs the gateway and repo-service in
// worker threads of their own, the other services and the in-process bus on the main thread.
// Everything that crosses between them must keep working: gRPC to repo-service, git over HTTP
// and SSH, repo-service's events reaching hook-service (a webhook), identity's access changes
// reaching the gateway's caches, and a clean stop.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { isMainThread, threadId } from "node:worker_threads";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { identityV1, type IdentityServiceDefinition } from "@quarry/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitHttp } from "./git-cli.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

let s: TestStack;
let receiver: Receiver;
let home: string;
beforeAll(async () => {
  // From TypeScript source each thread compiles its service first (tsx): slower to start than the bundle.
  s = await startTestStack(undefined, { threads: true, ssh: { port: 0, host: "127.0.0.1" }, authCacheTtlMs: 60_000 });
  receiver = await startReceiver();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-threads-"));
}, 180_000);
afterAll(async () => {
  await s?.destroy();
  await receiver?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const { post, put } = jsonRequests(() => s);
const get = (p: string, token?: string | null) => s.api(p, { token });

describe("the embedded mode's service threads", () => {
  it("runs the gateway and repo-service each in a worker thread of its own", () => {
    expect(isMainThread).toBe(true);
    expect(s.threadIds.gateway).toBeGreaterThan(0);
    expect(s.threadIds.repo).toBeGreaterThan(0);
    expect(new Set([threadId, s.threadIds.gateway, s.threadIds.repo]).size).toBe(3);
  });

  it("serves repositories across the threads: API writes and reads, git push over HTTP, a push webhook, SSH", async () => {
    const project = await jsonBody(await post("/projects", { name: `threads-${Date.now()}`, initialize_with_readme: true }), 201);
    // The gateway thread learned repo-service's SSH port from the main thread.
    expect(project.ssh_url_to_repo).toContain(`:${s.sshPort}/`);
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/hook`, push_events: true }), 201);
    await jsonBody(
      await post(`/projects/${project.id}/repository/files/notes.txt`, { branch: "main", content: "from the API\n", commit_message: "API commit" }),
      201,
    );
    const raw = await get(`/projects/${project.id}/repository/files/notes.txt/raw?ref=main`);
    expect(await raw.text()).toBe("from the API\n");

    const remote = new URL(project.http_url_to_repo);
    remote.username = "root";
    remote.password = s.rootToken;
    const work = path.join(home, "work");
    expect((await gitHttp(home, home, "clone", "--quiet", remote.toString(), work)).code).toBe(0);
    fs.writeFileSync(path.join(work, "pushed.txt"), "over HTTP\n");
    expect((await gitHttp(home, work, "add", "pushed.txt")).code).toBe(0);
    expect((await gitHttp(home, work, "commit", "--quiet", "-m", "Pushed over HTTP")).code).toBe(0);
    expect((await gitHttp(home, work, "push", "--quiet", "origin", "main")).code).toBe(0);

    // repo-service's thread published the push; hook-service, on the main thread, delivered it.
    await expect
      .poll(() => receiver.requests.filter((r) => r.json?.object_kind === "push").map((r) => r.json?.commits?.map((c) => c.title)), { timeout: 20_000 })
      .toContainEqual(["Pushed over HTTP"]);
    const commits = await jsonBody(await get(`/projects/${project.id}/repository/commits?ref_name=main`), 200);
    expect(commits[0].title).toBe("Pushed over HTTP");

    // repo-service's thread also answers git over SSH.
    const banner = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(s.sshPort!, "127.0.0.1");
      socket.once("data", (d) => {
        resolve(d.toString("latin1"));
        socket.destroy();
      });
      socket.once("error", reject);
    });
    expect(banner).toMatch(/^SSH-2\.0-Quarry/);
  });

  it("evicts the gateway thread's caches on access changes published on the main thread", async () => {
    const owner = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: `threads-acl-${Date.now()}`, visibility: "public" }, owner.token), 201);
    for (let i = 0; i < 2; i++) await jsonBody(await get(`/projects/${project.id}`, outsider.token), 200);
    // Through the gateway: evicted before the write is answered.
    await jsonBody(await put(`/projects/${project.id}`, { visibility: "internal" }, owner.token), 200);
    expect((await jsonBody(await get(`/projects/${project.id}`, outsider.token), 200)).visibility).toBe("internal");
    // Behind the gateway's back: only quarry.access.changed, bridged into the thread, can tell it (the TTL is a minute).
    const identity: PromiseClient<IdentityServiceDefinition> = createClient(identityV1.IdentityService, s.addresses.identity, { deadlineMs: 10_000 });
    try {
      await identity.UpdateProject({ actor: { userId: owner.id, isAdmin: false }, idOrPath: String(project.id), visibility: "private" });
    } finally {
      identity.close();
    }
    await expect.poll(async () => (await get(`/projects/${project.id}`, outsider.token)).status, { timeout: 10_000, interval: 50 }).toBe(404);
  });
});
