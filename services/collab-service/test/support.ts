// Shared set-up for collab-service handler tests: real PostgreSQL databases, a real identity-service
// (with the repo-service it creates repositories through), collab-service itself, and gRPC clients.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { createClient, httpErrorFromGrpc, type PromiseClient } from "@quarry/grpc";
import { startIdentityService } from "@quarry/identity-service";
import { silentLogger } from "@quarry/logger";
import { createObjectStore } from "@quarry/object-store";
import { collabV1, identityV1, type CollabServiceDefinition } from "@quarry/proto";
import { startRepoService } from "@quarry/repo-service";
import { createTestDatabase } from "@quarry/testing";
import { startCollabService, type RunningCollabService } from "../src/server.ts";

export type TestActor = { userId: number; isAdmin: boolean };

export async function setUp(prefix: string) {
  const dbs = await Promise.all([createTestDatabase(`${prefix}_identity`), createTestDatabase(`${prefix}_repo`), createTestDatabase(prefix)]);
  const [identityDb, repoDb, collabDb] = dbs;
  const storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "collab-test-"));
  const bus = new InProcessBus();
  const log = silentLogger();
  const repo = await startRepoService({ databaseUrl: repoDb.url, grpcAddress: "127.0.0.1:0", storageRoot, bus, log });
  const identity = await startIdentityService({
    databaseUrl: identityDb.url,
    grpcAddress: "127.0.0.1:0",
    repoServiceAddress: repo.address,
    deadlineMs: 10_000,
    bus,
    log,
    rootEmail: "admin@example.com",
    avatarStore: createObjectStore({ kind: "local", root: path.join(storageRoot, "objects"), bucket: "uploads" }),
    encryptionKey: "collab-test-identity-encryption-key-00000",
  });
  await identity.ensureRoot("glpat-collab-test-root-token-0000");
  const svc: RunningCollabService = await startCollabService({
    databaseUrl: collabDb.url,
    grpcAddress: "127.0.0.1:0",
    identityServiceAddress: identity.address,
    repoServiceAddress: repo.address,
    deadlineMs: 10_000,
    bus,
    log,
  });
  const id = createClient(identityV1.IdentityService, identity.address, { deadlineMs: 20_000 });
  const client: PromiseClient<CollabServiceDefinition> = createClient(collabV1.CollabService, svc.address, { deadlineMs: 20_000 });
  const root = await identity.deps.prisma.user.findUniqueOrThrow({ where: { usernameLower: "root" } });
  const admin: TestActor = { userId: root.id, isAdmin: true };
  let n = 0;
  const unique = () => `${prefix.replace(/_/g, "")}${Date.now().toString(36)}${n++}`;

  return {
    svc,
    /** The bus the services share (tests publish other services' events on it). */
    bus,
    client,
    identity: id,
    admin,
    anonymous: { userId: 0, isAdmin: false } as TestActor,
    /** A new regular user. */
    async user(): Promise<TestActor> {
      const name = unique();
      const u = await id.CreateUser({ actor: admin, username: name, email: `${name}@example.com`, name: `User ${name}`, password: "password-123" });
      return { userId: Number(u.id), isAdmin: false };
    },
    /** A group (under `parentId` when given) created by the administrator. */
    async group(options: { parentId?: number; visibility?: string } = {}) {
      const name = unique();
      const g = await id.CreateGroup({ actor: admin, name, path: name, parentId: options.parentId ?? 0, visibility: options.visibility ?? "public" });
      return { id: Number(g.id), fullPath: g.fullPath };
    },
    /** A project in `namespaceId` (the administrator's namespace by default). */
    async project(options: { namespaceId?: number; visibility?: string } = {}) {
      const name = unique();
      const p = await id.CreateProject({ actor: admin, name, path: name, namespaceId: options.namespaceId ?? 0, visibility: options.visibility ?? "public" });
      return { id: Number(p.id), path: p.pathWithNamespace };
    },
    /** Makes `user` a member of a project or group with `level`. */
    async member(kind: "project" | "group", targetId: number, user: TestActor, level: number) {
      await id.AddMember({ actor: admin, source: { kind, idOrPath: String(targetId) }, userId: user.userId, accessLevel: level });
    },
    async close() {
      client.close();
      id.close();
      await svc.stop();
      await identity.stop();
      await repo.stop();
      await bus.close();
      for (const db of dbs) await db.drop();
      fs.rmSync(storageRoot, { recursive: true, force: true });
    },
  };
}

export type CollabTestContext = Awaited<ReturnType<typeof setUp>>;

/** Awaits a call expected to fail and returns what the gateway would answer. */
export async function failure(p: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await p;
  } catch (err) {
    return httpErrorFromGrpc(err);
  }
  throw new Error("expected the call to fail");
}

export const projectParent = (id: number | string) => ({ project: String(id) });
export const groupParent = (id: number | string) => ({ group: String(id) });
