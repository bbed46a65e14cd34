import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetProject } from "../events/project-destroy.ts";
import { pipelineEvent } from "./pipelines-fixture.ts";
import { headPipelineOf, mergeRequestHeadRef, parseEventTime, recordPipeline } from "./pipelines.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_pipelines");
});
afterAll(() => t?.close());

const sha = (c: string) => c.repeat(40);

describe("pipelines read model", () => {
  it("parses GitLab's hook times and ISO times", () => {
    expect(parseEventTime("2026-11-26 05:00:01 UTC")?.toISOString()).toBe("2026-11-26T05:00:01.000Z");
    expect(parseEventTime("2026-11-26T05:00:01.500Z")?.toISOString()).toBe("2026-11-26T05:00:01.500Z");
    expect(parseEventTime(undefined)).toBeNull();
  });

  it("upserts by id and ignores an event older than the stored one", async () => {
    const db = t.svc.deps.prisma;
    const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 5, 0, s));
    expect(await recordPipeline(db, pipelineEvent({ id: 101, projectId: 7, sha: sha("a"), ref: "f", status: "running" }), at(2))).not.toBeNull();
    expect(await recordPipeline(db, pipelineEvent({ id: 101, projectId: 7, sha: sha("a"), ref: "f", status: "pending" }), at(1))).toBeNull();
    expect((await db.ciPipeline.findUniqueOrThrow({ where: { id: 101 } })).status).toBe("running");
    await recordPipeline(db, pipelineEvent({ id: 101, projectId: 7, sha: sha("a"), ref: "f", status: "success", updatedAt: "2026-11-26 05:00:03 UTC" }), at(0));
    expect(await db.ciPipeline.findUniqueOrThrow({ where: { id: 101 } })).toMatchObject({
      status: "success",
      updatedAt: at(3),
      sha: sha("a"),
      ref: "f",
      projectId: 7,
    });
  });

  it("picks the newest pipeline of the head on the source branch or the merge request ref as head pipeline", async () => {
    const db = t.svc.deps.prisma;
    const now = new Date();
    const mr = { sourceProjectId: 8, iid: 3, sourceBranch: "topic", headSha: sha("b") };
    expect(await headPipelineOf(db, mr)).toBeNull();
    await recordPipeline(db, pipelineEvent({ id: 201, projectId: 8, sha: sha("b"), ref: "topic", status: "failed" }), now);
    await recordPipeline(
      db,
      pipelineEvent({ id: 202, projectId: 8, sha: sha("b"), ref: mergeRequestHeadRef(3), status: "running", source: "merge_request_event" }),
      now,
    );
    // Other heads, refs and projects do not count.
    await recordPipeline(db, pipelineEvent({ id: 203, projectId: 8, sha: sha("c"), ref: "topic", status: "success" }), now);
    await recordPipeline(db, pipelineEvent({ id: 204, projectId: 8, sha: sha("b"), ref: "other", status: "success" }), now);
    await recordPipeline(db, pipelineEvent({ id: 205, projectId: 9, sha: sha("b"), ref: "topic", status: "success" }), now);
    expect((await headPipelineOf(db, mr))?.id).toBe(202);
    expect(await headPipelineOf(db, { ...mr, headSha: null })).toBeNull();
  });

  it("forgets a deleted project's pipelines", async () => {
    const db = t.svc.deps.prisma;
    await recordPipeline(db, pipelineEvent({ id: 301, projectId: 31, sha: sha("d"), ref: "x", status: "running" }), new Date());
    await recordPipeline(db, pipelineEvent({ id: 302, projectId: 32, sha: sha("d"), ref: "x", status: "running" }), new Date());
    await forgetProject(t.svc.deps, 31);
    expect((await db.ciPipeline.findMany({ where: { id: { in: [301, 302] } } })).map((p) => p.id)).toEqual([302]);
  });
});
