import { randomUUID } from "node:crypto";
import type { PushEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { pipelineForPush } from "./push-consumer.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_push_pipelines", { repo: true });
}, 60_000);
afterAll(() => t.close());

const ZERO = "0".repeat(40);
const push = (projectId: number, ref: string, after: string, extra: Partial<PushEvent> = {}): PushEvent =>
  ({ event_id: randomUUID(), project_id: projectId, ref, before: ZERO, after, checkout_sha: after, user_id: 3, ref_protected: false, ...extra }) as PushEvent;
const pipelines = (projectId: number) =>
  t.deps.prisma.pipeline.findMany({ where: { projectId }, orderBy: { id: "asc" }, include: { jobs: { orderBy: { id: "asc" } } } });

describe("pipelines from push events", () => {
  it("creates one pipeline per event, even when the event is delivered twice", async () => {
    const { sha } = await t.addProject(10, { ".gitlab-ci.yml": "job:\n  script: echo hi\n" });
    const event = push(10, "refs/heads/main", sha, { ref_protected: true });
    await pipelineForPush(t.deps, event);
    await pipelineForPush(t.deps, event);
    const [p, ...rest] = await pipelines(10);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ source: "push", ref: "main", tag: false, sha, protected: true, userId: 3, status: "pending", triggerEventId: event.event_id });
  });

  it("finishes the pipeline a redelivered event finds stored but never processed (its maker was killed in between)", async () => {
    const { sha } = await t.addProject(15, { ".gitlab-ci.yml": "job:\n  script: echo hi\n" });
    const event = push(15, "refs/heads/main", sha);
    await pipelineForPush(t.deps, event);
    const [made] = await pipelines(15);
    // As storePipeline left it, before createPipeline's processing step.
    await t.deps.prisma.job.updateMany({ where: { pipelineId: made!.id }, data: { status: "created", queuedAt: null } });
    await t.deps.prisma.pipeline.update({ where: { id: made!.id }, data: { status: "created" } });
    await pipelineForPush(t.deps, event);
    const [p, ...rest] = await pipelines(15);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ id: made!.id, status: "pending", jobs: [{ status: "pending" }] });
  });

  it("creates tag pipelines and ignores deletions and commits without a config", async () => {
    const { sha } = await t.addProject(11, { "README.md": "no ci" });
    await pipelineForPush(t.deps, push(11, "refs/heads/main", sha));
    const ci = t.commit(11, { ".gitlab-ci.yml": "job:\n  script: echo hi\n" });
    t.tag(11, "v1", ci);
    await pipelineForPush(t.deps, push(11, "refs/tags/v1", ci));
    await pipelineForPush(t.deps, push(11, "refs/heads/gone", ZERO, { before: ci }));
    expect((await pipelines(11)).map((p) => [p.ref, p.tag])).toEqual([["v1", true]]);
  });

  it("stores a failed pipeline with yaml_errors for an invalid config", async () => {
    const { sha } = await t.addProject(12, { ".gitlab-ci.yml": "job: [unclosed\n" });
    await pipelineForPush(t.deps, push(12, "refs/heads/main", sha));
    const [p] = await pipelines(12);
    expect(p).toMatchObject({ status: "failed", jobs: [] });
    expect(p!.yamlErrors).toMatch(/^\(<unknown>\): .*flow sequence/);
    expect(p!.finishedAt).not.toBeNull();
  });

  it("runs a trigger job's child pipeline from the included file, and the bridge succeeds", async () => {
    const config = `
stages: [build, child]
build:
  stage: build
  script: echo build
  when: manual
  allow_failure: true
kid:
  stage: child
  variables: { FROM_PARENT: "1" }
  trigger:
    include: child.yml
`;
    const { sha } = await t.addProject(13, { ".gitlab-ci.yml": config, "child.yml": "child-job:\n  script: echo $FROM_PARENT\n" });
    await pipelineForPush(t.deps, push(13, "refs/heads/main", sha));
    const [parent, child] = await pipelines(13);
    expect(child).toMatchObject({ source: "parent_pipeline", parentPipelineId: parent!.id, sha, status: "pending" });
    expect(child!.variables).toEqual([{ key: "FROM_PARENT", value: "1", variable_type: "env_var" }]);
    expect(child!.jobs.map((j) => [j.name, j.status])).toEqual([["child-job", "pending"]]);
    const bridge = parent!.jobs.find((j) => j.name === "kid")!;
    expect(bridge).toMatchObject({ type: "bridge", status: "success", downstreamPipelineId: child!.id });
    expect(child!.parentJobId).toBe(bridge.id);
    // The manual job does not block; the pipeline is done once the bridge is.
    expect(parent!.jobs.find((j) => j.name === "build")!.status).toBe("manual");
    expect(parent!.status).toBe("success");
  });

  it("fails a bridge whose child config is invalid", async () => {
    const { sha } = await t.addProject(14, { ".gitlab-ci.yml": "kid:\n  trigger:\n    include: child.yml\n", "child.yml": "nope: [\n" });
    await pipelineForPush(t.deps, push(14, "refs/heads/main", sha));
    const [parent, child] = await pipelines(14);
    expect(parent!.jobs[0]).toMatchObject({ status: "failed", failureReason: "downstream_pipeline_creation_failed", downstreamPipelineId: child!.id });
    expect(parent!.status).toBe("failed");
  });
});
