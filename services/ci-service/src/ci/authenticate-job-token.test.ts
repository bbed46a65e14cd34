import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { pipelineFrom, requestAs, runner } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { authenticateJobToken } from "./authenticate-job-token.ts";
import { updateJob } from "./update-job.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_auth_job_token", { repo: true });
}, 60_000);
afterAll(() => t.close());

describe("AuthenticateJobToken", () => {
  it("accepts a token only while its job runs", async () => {
    const { pipeline } = await pipelineFrom(t, "job:\n  script: x\n");
    const job = (await requestAs(t, (await runner(t)).token))!;
    expect(await authenticateJobToken(t.deps)({ token: job.token })).toEqual({
      jobId: Number(job.id),
      projectId: pipeline.projectId,
      userId: 5,
      pipelineId: pipeline.id,
    });
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
    for (const token of [job.token, "glcbt-unknown", ""]) {
      expect(await authenticateJobToken(t.deps)({ token }).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({
        status: 401,
        body: { message: "401 Unauthorized" },
      });
    }
  });
});
