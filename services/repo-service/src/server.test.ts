import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { createClient, httpErrorFromGrpc, status, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { repoV1, type RepoServiceDefinition } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRepoService, type RunningRepoService } from "./server.ts";

let db: TestDatabase;
let storageRoot: string;
let bus: InProcessBus;
let service: RunningRepoService;
let client: PromiseClient<RepoServiceDefinition>;

const diskPath = "@hashed/4e/07/4e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce.git";

beforeAll(async () => {
  db = await createTestDatabase("repo_server");
  storageRoot = path.join(mkdtempSync(path.join(os.tmpdir(), "quarry-repo-server-")), "not-yet-created");
  bus = new InProcessBus();
  service = await startRepoService({ databaseUrl: db.url, grpcAddress: "127.0.0.1:0", storageRoot, bus, log: silentLogger() });
  client = createClient(repoV1.RepoService, service.address, { deadlineMs: 5000 });
});

afterAll(async () => {
  client?.close();
  await service?.stop();
  await bus?.close();
  await db?.drop();
  if (storageRoot) rmSync(path.dirname(storageRoot), { recursive: true, force: true });
});

describe("RepoService over gRPC", () => {
  it("listens on a picked port after migrating and creating the storage root", () => {
    expect(service.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    expect(service.deps.storageRoot).toBe(storageRoot);
  });

  it("creates, describes, re-points and deletes a repository", async () => {
    const request = {
      projectId: 3,
      diskPath,
      defaultBranch: "main",
      initializeWithReadme: true,
      author: { name: "Ada", email: "ada@example.com" },
      projectName: "Engine",
      projectDescription: "",
    };
    const created = await client.CreateRepository(request);
    expect(created.headCommitId).toMatch(/^[0-9a-f]{40}$/);
    expect(await client.CreateRepository(request)).toEqual(created); // a retry changes nothing

    expect(await client.GetRepositoryInfo({ diskPath })).toEqual({ exists: true, empty: false, defaultBranch: "main", branchCount: 1 });
    await client.SetDefaultBranch({ diskPath, branch: "next", mustExist: false });
    expect(await client.GetRepositoryInfo({ diskPath })).toMatchObject({ defaultBranch: "next" });
    expect(await service.deps.prisma.repository.findUnique({ where: { projectId: 3 } })).toMatchObject({ diskPath, defaultBranch: "next" });

    expect(await client.DeleteRepository({ projectId: 3, diskPath })).toEqual({});
    expect(await client.GetRepositoryInfo({ diskPath })).toMatchObject({ exists: false });
    expect(await client.DeleteRepository({ projectId: 3, diskPath })).toEqual({});
  });

  it("maps NOT_FOUND to 404 with GitLab's body", async () => {
    await client.CreateRepository({ projectId: 4, diskPath: "@hashed/aa/bb/four.git", initializeWithReadme: true, author: { name: "A", email: "a@example.com" }, projectName: "P" });
    const err = await client
      .SetDefaultBranch({ diskPath: "@hashed/aa/bb/four.git", branch: "missing", mustExist: true })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: status.NOT_FOUND });
    expect(httpErrorFromGrpc(err)).toEqual({ status: 404, body: { message: "404 Branch Not Found" } });
  });

  it("maps INVALID_ARGUMENT to 400 with the parameter error", async () => {
    const badBranch = await client.SetDefaultBranch({ diskPath: "@hashed/aa/bb/four.git", branch: "a..b" }).catch((e: unknown) => e);
    expect(err(badBranch)).toEqual({ code: status.INVALID_ARGUMENT, http: { status: 400, body: { error: "default_branch does not have a valid value" } } });

    const badPath = await client.GetRepositoryInfo({ diskPath: "../../etc/passwd.git" }).catch((e: unknown) => e);
    expect(err(badPath)).toMatchObject({ code: status.INVALID_ARGUMENT, http: { status: 400, body: { message: expect.stringContaining("disk_path") } } });
  });

  it("hides unexpected failures behind a bare 500", async () => {
    const failed = await client
      .CreateRepository({ projectId: 5, diskPath: "@hashed/aa/bb/five.git", initializeWithReadme: true, author: { name: "<>", email: "x@example.com" } })
      .catch((e: unknown) => e);
    expect(err(failed)).toEqual({ code: status.INTERNAL, http: { status: 500, body: { message: "500 Internal Server Error" } } });
    expect(await client.GetRepositoryInfo({ diskPath: "@hashed/aa/bb/five.git" })).toMatchObject({ exists: false });
  });
});

function err(e: unknown): { code: unknown; http: ReturnType<typeof httpErrorFromGrpc> } {
  return { code: (e as { code?: unknown }).code, http: httpErrorFromGrpc(e) };
}
