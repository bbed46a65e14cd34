import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus, Subjects, type BusMessage, type PushEvent } from "@quarry/bus";
import { createClient, httpErrorFromGrpc, status, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { repoV1, type RepoServiceDefinition } from "@quarry/proto";
import { createTestDatabase, waitFor, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedPushPayload, pushContext } from "../test/support.ts";
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

    expect(await client.GetRepositoryInfo({ diskPath })).toEqual({ exists: true, empty: false, defaultBranch: "main", branchCount: 1, storageName: "default" });
    await client.SetDefaultBranch({ diskPath, branch: "next", mustExist: false });
    expect(await client.GetRepositoryInfo({ diskPath })).toMatchObject({ defaultBranch: "next" });
    expect(await service.deps.prisma.repository.findUnique({ where: { projectId: 3 } })).toMatchObject({ diskPath, defaultBranch: "next" });

    expect(await client.DeleteRepository({ projectId: 3, diskPath })).toEqual({});
    expect(await client.GetRepositoryInfo({ diskPath })).toMatchObject({ exists: false });
    expect(await client.DeleteRepository({ projectId: 3, diskPath })).toEqual({});
  });

  it("maps NOT_FOUND to 404 with GitLab's body", async () => {
    await client.CreateRepository({
      projectId: 4,
      diskPath: "@hashed/aa/bb/four.git",
      initializeWithReadme: true,
      author: { name: "A", email: "a@example.com" },
      projectName: "P",
    });
    const err = await client.SetDefaultBranch({ diskPath: "@hashed/aa/bb/four.git", branch: "missing", mustExist: true }).catch((e: unknown) => e);
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

describe("branches over gRPC", () => {
  const branchPath = "@hashed/aa/bb/branches.git";

  it("publishes a created branch's push event on the bus through the outbox relay", async () => {
    const received: BusMessage<PushEvent>[] = [];
    const sub = await bus.subscribe<PushEvent>(Subjects.push, async (m) => void received.push(m), { durable: "server-test" });
    try {
      const { headCommitId } = await client.CreateRepository({
        projectId: 6,
        diskPath: branchPath,
        initializeWithReadme: true,
        author: { name: "Ada", email: "ada@example.com" },
        projectName: "Branches",
      });
      const branch = await client.CreateBranch({ diskPath: branchPath, name: "feature", ref: "main", context: pushContext(6) });
      expect(branch).toMatchObject({ name: "feature", merged: false, default: false, commit: { id: headCommitId, title: "Initial commit" } });

      const message = await waitFor(() => received.find((m) => m.data.ref === "refs/heads/feature"), { message: "push event on the bus" });
      expect(message.subject).toBe(Subjects.push);
      expect(message.data).toEqual(expectedPushPayload("refs/heads/feature", "0".repeat(40), headCommitId, 6));
      expect(message.id).toBe(message.data.event_id);
      // Published once: the row is marked so the next drain skips it.
      await waitFor(async () => (await service.deps.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0);
      expect(received.filter((m) => m.data.ref === "refs/heads/feature")).toHaveLength(1);
    } finally {
      await sub.unsubscribe();
    }
  });

  it("lists, finds and deletes branches, with GitLab's errors", async () => {
    const listed = await client.ListBranches({ diskPath: branchPath, defaultBranch: "main" });
    expect(listed.branches.map((b) => [b.name, b.default])).toEqual([
      ["feature", false],
      ["main", true],
    ]);
    expect(listed.total).toBe(2);
    expect(listed.branches[0]?.commit?.extendedTrailers).toEqual({});

    const missing = await client.FindBranch({ diskPath: branchPath, name: "nope", defaultBranch: "main" }).catch((e: unknown) => e);
    expect(err(missing)).toEqual({ code: status.NOT_FOUND, http: { status: 404, body: { message: "404 Branch Not Found" } } });
    const defaultBranch = await client.DeleteBranch({ diskPath: branchPath, name: "main", context: pushContext(6) }).catch((e: unknown) => e);
    expect(err(defaultBranch)).toEqual({
      code: status.FAILED_PRECONDITION,
      http: { status: 405, body: { message: "The default branch of a project cannot be deleted." } },
    });
    const badRegex = await client.ListBranches({ diskPath: branchPath, regex: "(" }).catch((e: unknown) => e);
    expect(err(badRegex)).toEqual({ code: status.INVALID_ARGUMENT, http: { status: 400, body: { message: "Regex is invalid" } } });

    expect(await client.DeleteBranch({ diskPath: branchPath, name: "feature", context: pushContext(6) })).toEqual({});
    expect(await client.DeleteMergedBranches({ diskPath: branchPath, context: pushContext(6) })).toEqual({ deleted: [] });
    expect((await client.ListBranches({ diskPath: branchPath })).total).toBe(1);
  });
});

function err(e: unknown): { code: unknown; http: ReturnType<typeof httpErrorFromGrpc> } {
  return { code: (e as { code?: unknown }).code, http: httpErrorFromGrpc(e) };
}
