// Project statistics: figures measured elsewhere arrive as bus events and are kept per project,
// newest measurement first; uploads move uploads_size in their own transaction.
import { randomUUID } from "node:crypto";
import { Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordArtifactsStatistics, recordRepositoryStatistics } from "./project-statistics.ts";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

const newProject = async () => {
  const owner = await f.user();
  const p = await f.c.CreateProject({ actor: owner, name: `st${randomUUID().slice(0, 8)}` });
  return { owner, id: Number(p.id), p };
};

const repoEvent = (projectId: number, at: string, size: number, commits: number) => ({
  event_id: randomUUID(),
  project_id: projectId,
  measured_at: at,
  repository_size: size,
  commit_count: commits,
  wiki_size: 7,
});

describe("project statistics", () => {
  it("are absent until something was measured", async () => {
    const { owner, id } = await newProject();
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics).toBeNull();
  });

  it("keep the newest repository measurement; older ones arriving late change nothing", async () => {
    const { owner, id } = await newProject();
    await recordRepositoryStatistics(f.deps, repoEvent(id, "2026-11-26T10:00:00.000Z", 5000, 3));
    await recordRepositoryStatistics(f.deps, repoEvent(id, "2026-11-26T09:00:00.000Z", 100, 1));
    const s = (await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics;
    expect(s).toMatchObject({ repositorySize: 5000, commitCount: 3, wikiSize: 7, storageSize: 5007, jobArtifactsSize: 0 });
    await recordRepositoryStatistics(f.deps, repoEvent(id, "2026-11-26T11:00:00.000Z", 6000, 4));
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics).toMatchObject({ repositorySize: 6000, commitCount: 4 });
  });

  it("keep the newest job artifacts total beside the repository figures, in storage_size", async () => {
    const { owner, id } = await newProject();
    await recordRepositoryStatistics(f.deps, repoEvent(id, "2026-11-26T10:00:00.000Z", 1000, 1));
    await recordArtifactsStatistics(f.deps, { event_id: randomUUID(), project_id: id, measured_at: "2026-11-26T10:00:00.000Z", job_artifacts_size: 300 });
    await recordArtifactsStatistics(f.deps, { event_id: randomUUID(), project_id: id, measured_at: "2026-11-26T09:00:00.000Z", job_artifacts_size: 5 });
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics).toMatchObject({
      repositorySize: 1000,
      jobArtifactsSize: 300,
      storageSize: 1000 + 7 + 300,
    });
  });

  it("skip a measurement of a project that no longer exists", async () => {
    await recordRepositoryStatistics(f.deps, repoEvent(2_000_000_000, "2026-11-26T10:00:00.000Z", 1, 1));
    expect(await f.deps.prisma.projectStatistics.findUnique({ where: { projectId: 2_000_000_000 } })).toBeNull();
  });

  it("take a published repository measurement from the bus", async () => {
    const { owner, id } = await newProject();
    const event = repoEvent(id, new Date().toISOString(), 2048, 2);
    await f.bus.publish(Subjects.repositoryStatistics, event, { msgId: event.event_id });
    const s = await waitFor(async () => (await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics);
    expect(s).toMatchObject({ repositorySize: 2048, commitCount: 2 });
  });

  it("take a published artifacts total from the bus", async () => {
    const { owner, id } = await newProject();
    const event = { event_id: randomUUID(), project_id: id, measured_at: new Date().toISOString(), job_artifacts_size: 4242 };
    await f.bus.publish(Subjects.artifactsStatistics, event, { msgId: event.event_id });
    const s = await waitFor(async () => (await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics);
    expect(s.jobArtifactsSize).toBe(4242);
  });

  it("count uploads in uploads_size as they are added and deleted", async () => {
    const { owner, id } = await newProject();
    const a = await f.c.CreateUpload({ actor: owner, project: String(id), filename: "a.txt", data: Buffer.from("hello") });
    await f.c.CreateUpload({ actor: owner, project: String(id), filename: "b.txt", data: Buffer.from("1234567") });
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics).toMatchObject({ uploadsSize: 12, storageSize: 12 });
    await f.c.DeleteUpload({ actor: owner, project: String(id), id: a.id });
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(id) })).statistics).toMatchObject({ uploadsSize: 7 });
  });
});
