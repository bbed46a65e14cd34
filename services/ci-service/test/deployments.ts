// A project with three deploying jobs run to different ends, for the environment and deployment RPC tests.
import { updateJob } from "../src/ci/update-job.ts";
import { pipelineFrom, runner, takeJob } from "./pipelines.ts";
import type { TestContext } from "./support.ts";

const YAML = `
prod:
  script: deploy
  environment: { name: production, url: https://prod.example.com }
staging:
  script: deploy
  environment: staging
review:
  script: deploy
  environment: review/app
`;

/** Deployments 1 (production, success), 2 (staging, failed) and 3 (review/app, created); returns the project id. */
export async function seedDeployments(t: TestContext): Promise<number> {
  const { pipeline } = await pipelineFrom(t, YAML);
  const r = await runner(t);
  for (const state of ["success", "failed"] as const) {
    const job = await takeJob(t, r.token);
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state, failureReason: state === "failed" ? "script_failure" : "" });
  }
  return pipeline.projectId;
}
