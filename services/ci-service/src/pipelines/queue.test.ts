import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelineFrom, requestAs, runner, statuses } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_queue_groups", { repo: true });
}, 60_000);
afterAll(() => t.close());

const groupRunner = (groupId: number, overrides: Parameters<typeof runner>[1] = {}) => runner(t, { runnerType: "group_type", groupId, ...overrides });

describe("claimJob for group runners", () => {
  it("hands a group runner the jobs of the projects below its group (subgroups included), never another group's", async () => {
    const inSubgroup = await pipelineFrom(t, "build:\n  script: x\n");
    const elsewhere = await pipelineFrom(t, "build:\n  script: x\n");
    // Group 10 holds (through a subgroup) the first project; group 20 the second.
    t.groupProjects.set(10, [inSubgroup.project.id]);
    t.groupProjects.set(20, [elsewhere.project.id]);
    const mine = await groupRunner(10);
    const job = await requestAs(t, mine.token);
    expect(job).toMatchObject({ name: "build", projectId: inSubgroup.project.id });
    const row = await t.deps.prisma.job.findUniqueOrThrow({ where: { id: Number(job!.id) } });
    expect(row).toMatchObject({ status: "running", runnerId: mine.id });
    // The other group's job is not this runner's, even though it is the only one pending.
    expect(await requestAs(t, mine.token)).toBeNull();
    expect(await statuses(t, elsewhere.pipeline.id)).toEqual({ build: "pending" });
    const theirs = await groupRunner(20);
    expect((await requestAs(t, theirs.token))?.projectId).toBe(elsewhere.project.id);
  });

  it("applies the tag, untagged, protected and paused rules of project runners", async () => {
    const { project, pipeline } = await pipelineFrom(t, "tagged:\n  tags: [docker]\n  script: x\nuntagged:\n  script: x\n");
    const prot = await pipelineFrom(t, "release:\n  script: x\n", {}, { refProtected: true });
    t.groupProjects.set(30, [project.id, prot.project.id]);
    const paused = await groupRunner(30, { paused: true });
    const dockerOnly = await groupRunner(30, { tagList: ["docker"], runUntagged: false });
    const protectedOnly = await groupRunner(30, { accessLevel: "ref_protected", tagList: [] });
    expect(await requestAs(t, paused.token)).toBeNull();
    expect((await requestAs(t, dockerOnly.token))?.name).toBe("tagged");
    expect(await requestAs(t, dockerOnly.token)).toBeNull(); // only untagged jobs are left
    expect((await requestAs(t, protectedOnly.token))?.name).toBe("release");
    expect(await requestAs(t, protectedOnly.token)).toBeNull(); // the first project's ref is not protected
    const plain = await groupRunner(30);
    expect((await requestAs(t, plain.token))?.name).toBe("untagged");
    expect(await statuses(t, pipeline.id)).toEqual({ tagged: "running", untagged: "running" });
  });

  it("stops handing a project's pending jobs to the group's runners once it left the group", async () => {
    const { project, pipeline } = await pipelineFrom(t, "build:\n  script: x\n");
    t.groupProjects.set(40, [project.id]);
    t.groupProjects.set(50, []);
    const old = await groupRunner(40);
    const next = await groupRunner(50);
    // Transferred from group 40 to group 50 while its job waits.
    t.groupProjects.set(40, []);
    t.groupProjects.set(50, [project.id]);
    expect(await requestAs(t, old.token)).toBeNull();
    expect(await statuses(t, pipeline.id)).toEqual({ build: "pending" });
    expect((await requestAs(t, next.token))?.projectId).toBe(project.id);
  });

  it("gives a job to exactly one of several group runners asking at once", async () => {
    const { project, pipeline } = await pipelineFrom(t, "only:\n  script: x\n");
    t.groupProjects.set(60, [project.id]);
    const runners = await Promise.all([1, 2, 3, 4].map(() => groupRunner(60)));
    const answers = await Promise.all(runners.map((r) => requestAs(t, r.token)));
    expect(answers.filter((a) => a !== null)).toHaveLength(1);
    expect(await statuses(t, pipeline.id)).toEqual({ only: "running" });
  });

  it("asks identity-service nothing while no pending job could be the runner's", async () => {
    const asked: number[] = [];
    const before = t.deps.projects.groupProjectIds;
    t.deps.projects.groupProjectIds = async (id) => {
      asked.push(id);
      return before(id);
    };
    try {
      const r = await groupRunner(70, { tagList: ["gpu"], runUntagged: false });
      expect(await requestAs(t, r.token)).toBeNull();
      expect(asked).toEqual([]);
      const { project } = await pipelineFrom(t, "train:\n  tags: [gpu]\n  script: x\n");
      t.groupProjects.set(70, [project.id]);
      expect((await requestAs(t, r.token))?.name).toBe("train");
      expect(asked).toEqual([70]);
    } finally {
      t.deps.projects.groupProjectIds = before;
    }
  });
});
