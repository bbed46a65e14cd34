// Shared setup for the RPC tests: real PostgreSQL, a real repo-service with git on disk, the
// in-process bus, and a real gRPC client for IdentityService.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { createClient, httpErrorFromGrpc } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { identityV1 } from "@quarry/proto";
import { startRepoService } from "@quarry/repo-service";
import { createTestDatabase } from "@quarry/testing";
import { createObjectStore } from "@quarry/object-store";
import { startIdentityService } from "../server.ts";

export const ROOT_TOKEN = "glpat-fixture-root-token-000000";

export async function identityFixture(options: { dnsServers?: string[] } = {}) {
  const identityDb = await createTestDatabase("ident");
  const repoDb = await createTestDatabase("identrepo");
  const storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ident-repos-"));
  const bus = new InProcessBus();
  const log = silentLogger();
  const repo = await startRepoService({ databaseUrl: repoDb.url, grpcAddress: "127.0.0.1:0", storageRoot, bus, log });
  const service = await startIdentityService({
    databaseUrl: identityDb.url,
    grpcAddress: "127.0.0.1:0",
    repoServiceAddress: repo.address,
    deadlineMs: 10_000,
    bus,
    log,
    rootEmail: "admin@example.com",
    avatarStore: createObjectStore({ kind: "local", root: path.join(storageRoot, "objects"), bucket: "uploads" }),
    encryptionKey: "identity-fixture-encryption-key-0000000000",
    dnsServers: options.dnsServers,
  });
  await service.ensureRoot(ROOT_TOKEN);
  const c = createClient(identityV1.IdentityService, service.address, { deadlineMs: 20_000 });
  const root = await service.deps.prisma.user.findUniqueOrThrow({ where: { usernameLower: "root" } });
  const admin = { userId: root.id, isAdmin: true };
  let n = 0;

  return {
    c,
    deps: service.deps,
    bus,
    storageRoot,
    admin,
    anonymous: { userId: 0, isAdmin: false },
    /** A new regular user; returns its actor. */
    async user(name = `u${Date.now().toString(36)}${n++}`) {
      const u = await c.CreateUser({ actor: admin, username: name, email: `${name}@example.com`, name: `User ${name}`, password: "password-123" });
      return { userId: Number(u.id), isAdmin: false, username: u.username, namespaceId: Number(u.namespaceId) };
    },
    async close() {
      c.close();
      await service.stop();
      await repo.stop();
      await bus.close();
      await identityDb.drop();
      await repoDb.drop();
      fs.rmSync(storageRoot, { recursive: true, force: true });
    },
  };
}

export type Fixture = Awaited<ReturnType<typeof identityFixture>>;

/** Awaits a call expected to fail and returns what the gateway would answer. */
export async function failure(p: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return httpErrorFromGrpc(err);
  }
  throw new Error("expected the call to fail");
}
