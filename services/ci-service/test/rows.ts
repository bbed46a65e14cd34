// Rows for the pipeline and job read tests, written straight to the tables with the defaults a
// freshly created pipeline has; each test overrides what it is about.
import type { PrismaClient } from "../src/deps.ts";
import type { Job, Pipeline, Prisma } from "../src/generated/prisma/client.ts";

let nextIid = 1;

export function seedPipeline(prisma: PrismaClient, data: Partial<Prisma.PipelineUncheckedCreateInput> = {}): Promise<Pipeline> {
  return prisma.pipeline.create({
    data: {
      iid: nextIid++,
      projectId: 1,
      projectPath: "group/project",
      ref: "main",
      sha: "a".repeat(40),
      source: "push",
      userId: 1,
      ...data,
    },
  });
}

export function seedJob(prisma: PrismaClient, pipeline: Pipeline, data: Partial<Prisma.JobUncheckedCreateInput> = {}): Promise<Job> {
  return prisma.job.create({
    data: { pipelineId: pipeline.id, projectId: pipeline.projectId, name: "test", stage: "test", stageIdx: 0, userId: pipeline.userId, ...data },
  });
}
