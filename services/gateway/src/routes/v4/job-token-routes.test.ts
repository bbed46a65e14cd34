// Which API routes take a CI job token is declared on each route (jobTokenAccess); authenticate()
// refuses a job token everywhere else. These are the routes GitLab opens to job tokens that we serve.
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../../deps.ts";
import { jobTokenRoutes } from "../../http/job-token.ts";
import { v4Router } from "./index.ts";

/** Deps that building the routers never calls: any property is another such object. */
const inert: GatewayDeps = new Proxy(() => inert, { get: () => inert }) as unknown as GatewayDeps;

const accepts = jobTokenRoutes(v4Router(inert));
const request = (method: string, path: string) => ({ method, path }) as Request;

describe("job token routes", () => {
  it("are exactly the artifact downloads", () => {
    expect([...accepts.paths].sort()).toEqual([
      "/jobs/:id/artifacts",
      "/projects/:id/jobs/:job_id/artifacts",
      "/projects/:id/jobs/:job_id/artifacts/*artifact_path",
      "/projects/:id/jobs/artifacts/:ref_name/download",
      "/projects/:id/jobs/artifacts/:ref_name/raw/*artifact_path",
    ]);
  });

  it.each([
    ["GET", "/projects/7/jobs/12/artifacts"],
    ["GET", "/projects/group%2Fproject/jobs/12/artifacts"],
    ["GET", "/projects/7/jobs/12/artifacts/out/report.txt"],
    ["GET", "/projects/7/jobs/artifacts/main/download"],
    ["GET", "/projects/7/jobs/artifacts/feature%2Fx/raw/out/report.txt"],
    ["GET", "/jobs/12/artifacts"],
  ])("take a job token on %s %s", (method, path) => {
    expect(accepts(request(method, path))).toBe(true);
  });

  it.each([
    ["HEAD", "/projects/7/jobs/12/artifacts"],
    ["POST", "/projects/7/jobs/12/artifacts/keep"],
    ["DELETE", "/projects/7/jobs/12/artifacts"],
    ["DELETE", "/projects/7/artifacts"],
    ["POST", "/jobs/12/artifacts"],
    ["GET", "/projects/7/jobs/12"],
    ["GET", "/projects/7/jobs/12/trace"],
    ["GET", "/projects/7/jobs"],
    ["GET", "/projects/7"],
    ["GET", "/projects/7/repository/files/README.md/raw"],
    ["GET", "/projects/7/pipelines"],
    ["GET", "/user"],
    ["GET", "/job"],
    ["GET", "/projects/7/jobs/artifacts/main"],
  ])("refuse a job token on %s %s", (method, path) => {
    expect(accepts(request(method, path))).toBe(false);
  });
});
