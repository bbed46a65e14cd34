import { createServer, type AddressInfo } from "node:net";
import { Subjects } from "@quarry/bus";
import { refsIn, startGitHttpRemote, waitFor, type GitHttpRemote } from "@quarry/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../generated/prisma/client.ts";
import { commitOn, gitIn, newProject, setUp, type MirrorTestContext } from "../../test/support.ts";
import { divergedMessage } from "./run-sync.ts";

const USER = "bot";
const PASSWORD = "mirror-Pa55";

let t: MirrorTestContext;
let remote: GitHttpRemote;
let n = 0;

beforeAll(async () => {
  t = await setUp("mirror_sync");
  remote = await startGitHttpRemote({ username: USER, password: PASSWORD });
});
afterEach(() => t.stopMirrors());
afterAll(async () => {
  await remote?.close();
  await t?.close();
});

async function mirrored(o: { enabled?: boolean; keepDivergentRefs?: boolean } = {}) {
  const project = await newProject(t);
  const name = `sync-${++n}`;
  const url = remote.createRepository(name).replace("http://", `http://${USER}:${PASSWORD}@`);
  return {
    project,
    name,
    url,
    create: (client: Awaited<ReturnType<MirrorTestContext["startMirror"]>>["client"]) =>
      client.CreateMirror({
        projectId: project.projectId,
        diskPath: project.diskPath,
        url,
        enabled: o.enabled ?? true,
        keepDivergentRefs: o.keepDivergentRefs,
      }),
  };
}

const settled = (client: Awaited<ReturnType<MirrorTestContext["startMirror"]>>["client"], projectId: number, mirrorId: number) =>
  waitFor(
    async () => {
      const m = await client.GetMirror({ projectId, mirrorId });
      return m.updateStatus === "finished" || m.updateStatus === "failed" ? m : null;
    },
    { message: "mirror sync to end" },
  );

describe("mirror sync", () => {
  it("a forced sync pushes everything and records success", async () => {
    const { client } = await t.startMirror();
    const s = await mirrored();
    const m = await s.create(client);
    await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
    const done = await settled(client, s.project.projectId, m.id);
    expect(done).toMatchObject({ updateStatus: "finished" });
    expect(done.lastError).toBeUndefined();
    expect(done.lastUpdateAt).toBe(done.lastSuccessfulUpdateAt);
    expect(Date.parse(done.lastUpdateStartedAt!)).toBeLessThanOrEqual(Date.parse(done.lastUpdateAt!));
    expect(remote.refs(s.name)).toEqual(refsIn(s.project.dir));
  });

  it("a push event syncs every enabled mirror of the project and no disabled one", async () => {
    const { client } = await t.startMirror();
    const s = await mirrored();
    const on = await s.create(client);
    const off = await client.CreateMirror({ projectId: s.project.projectId, diskPath: s.project.diskPath, url: s.url, enabled: false });
    const next = commitOn(s.project.dir, "refs/heads/main", "Next");
    gitIn(s.project.dir, "update-ref", "refs/heads/main", next);
    await t.bus.publish(Subjects.push, { project_id: s.project.projectId, ref: "refs/heads/main", after: next });
    expect(await settled(client, s.project.projectId, on.id)).toMatchObject({ updateStatus: "finished" });
    expect(remote.refs(s.name)["refs/heads/main"]).toBe(next);
    expect((await client.GetMirror({ projectId: s.project.projectId, mirrorId: off.id })).updateStatus).toBe("none");
  });

  it("keeps diverged refs and fails with GitLab's message; an unreachable remote fails with git's", async () => {
    const { client } = await t.startMirror();
    const s = await mirrored({ keepDivergentRefs: true });
    const m = await s.create(client);
    await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
    expect(await settled(client, s.project.projectId, m.id)).toMatchObject({ updateStatus: "finished" });
    const theirs = commitOn(remote.repositoryPath(s.name), "refs/heads/main", "Theirs");
    gitIn(remote.repositoryPath(s.name), "update-ref", "refs/heads/main", theirs);
    gitIn(s.project.dir, "update-ref", "refs/heads/main", commitOn(s.project.dir, "refs/heads/main", "Ours"));
    await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
    const failed = await settled(client, s.project.projectId, m.id);
    expect(failed).toMatchObject({ updateStatus: "failed", lastError: divergedMessage(["refs/heads/main"]) });
    expect(failed.lastError).toBe("Some refs have diverged and have not been updated on the remote:\n\nrefs/heads/main");
    expect(remote.refs(s.name)["refs/heads/main"]).toBe(theirs);

    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const gone = await client.CreateMirror({
      projectId: s.project.projectId,
      diskPath: s.project.diskPath,
      url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/x.git`,
      enabled: true,
    });
    await client.SyncMirror({ projectId: s.project.projectId, mirrorId: gone.id });
    const down = await settled(client, s.project.projectId, gone.id);
    expect(down.updateStatus).toBe("failed");
    expect(down.lastError).toMatch(/Failed to connect|Could not connect|unable to access/);
    expect(down.lastError).not.toContain(PASSWORD);
    expect(down.lastSuccessfulUpdateAt).toBeUndefined();
  });

  it("refuses at sync time a private address that is no longer allowed", async () => {
    const open = await t.startMirror();
    const s = await mirrored();
    const m = await s.create(open.client);
    await open.svc.stop();
    const strict = await t.startMirror({ allowLocalRequests: false });
    await strict.client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
    const done = await settled(strict.client, s.project.projectId, m.id);
    expect(done).toMatchObject({ updateStatus: "failed", lastError: "Requests to localhost are not allowed" });
    expect(remote.refs(s.name)).toEqual({});
  });

  it("coalesces requests: scheduled twice is one message; a request while running is one more sync after it", async () => {
    const { svc, client } = await t.startMirror();
    const s = await mirrored();
    const m = await s.create(client);
    const seen: number[] = [];
    const sub = await t.bus.subscribe<{ mirror_id: number }>(Subjects.mirrorSync, async (msg) => void seen.push(msg.data.mirror_id), {
      durable: `count-${m.id}`,
    });
    try {
      // Pretend a sync is running: requests only set the flag, and nothing is published.
      await svc.deps.prisma.remoteMirror.update({
        where: { id: m.id },
        data: { updateStatus: "started", syncToken: "other", leaseExpiresAt: new Date(Date.now() + 600_000) },
      });
      await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
      await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
      let row = await svc.deps.prisma.remoteMirror.findUniqueOrThrow({ where: { id: m.id } });
      expect(row).toMatchObject({ updateStatus: "started", syncAgain: true });
      expect(seen.filter((id) => id === m.id)).toEqual([]);
      // Scheduled (message presumably in flight): another request adds nothing.
      await svc.deps.prisma.remoteMirror.update({
        where: { id: m.id },
        data: { updateStatus: "scheduled", syncToken: null, leaseExpiresAt: null, syncAgain: false },
      });
      await client.SyncMirror({ projectId: s.project.projectId, mirrorId: m.id });
      row = await svc.deps.prisma.remoteMirror.findUniqueOrThrow({ where: { id: m.id } });
      expect(row.syncAgain).toBe(false);
      expect(seen.filter((id) => id === m.id)).toEqual([]);
    } finally {
      await sub.unsubscribe();
    }
  });

  it("a sync scheduled before a crash, or started and lost, runs after a restart", async () => {
    const first = await t.startMirror();
    const a = await mirrored();
    const b = await mirrored();
    const ma = await a.create(first.client);
    const mb = await b.create(first.client);
    await t.stopMirrors();
    // The crash: one mirror scheduled but its message lost, one started by a worker that died.
    const prisma = createPrisma(PrismaClient, t.mirrorDb.url, 1);
    try {
      await prisma.remoteMirror.update({ where: { id: ma.id }, data: { updateStatus: "scheduled" } });
      await prisma.remoteMirror.update({
        where: { id: mb.id },
        data: {
          updateStatus: "started",
          syncToken: "dead-worker",
          lastUpdateStartedAt: new Date(Date.now() - 120_000),
          leaseExpiresAt: new Date(Date.now() - 1_000),
        },
      });
    } finally {
      await prisma.$disconnect();
    }
    const second = await t.startMirror();
    expect(await settled(second.client, a.project.projectId, ma.id)).toMatchObject({ updateStatus: "finished" });
    expect(await settled(second.client, b.project.projectId, mb.id)).toMatchObject({ updateStatus: "finished" });
    expect(remote.refs(a.name)).toEqual(refsIn(a.project.dir));
    expect(remote.refs(b.name)).toEqual(refsIn(b.project.dir));
  });
});
