import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ERROR_BODY_KEY, type PromiseClient } from "@quarry/grpc";
import type { MirrorServiceDefinition } from "@quarry/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type MirrorTestContext } from "../../test/support.ts";
import type { RunningMirrorService } from "../server.ts";

let t: MirrorTestContext;
let svc: RunningMirrorService;
let client: PromiseClient<MirrorServiceDefinition>;
let strict: PromiseClient<MirrorServiceDefinition>;

beforeAll(async () => {
  t = await setUp("mirror_crud");
  ({ svc, client } = await t.startMirror());
  ({ client: strict } = await t.startMirror({ allowLocalRequests: false }));
});
afterAll(() => t?.close());

const fail = (p: Promise<unknown>) =>
  p.then(
    () => ({}) as Record<string, unknown>,
    (e: Record<string, unknown>) => e,
  );
const body = (e: Record<string, unknown>) => JSON.parse(String((e.metadata as { get(k: string): unknown[] }).get(ERROR_BODY_KEY)[0]));

describe("mirror CRUD", () => {
  it("creates a mirror with GitLab's defaults, the credentials split off, sealed and masked", async () => {
    const m = await client.CreateMirror({ projectId: 1, diskPath: "@hashed/aa/bb/x.git", url: "https://bob:s3cret@example.com/a/b.git" });
    expect(m).toMatchObject({
      projectId: 1,
      url: "https://*****:*****@example.com/a/b.git",
      enabled: false,
      authMethod: "password",
      onlyProtectedBranches: false,
      keepDivergentRefs: false,
      updateStatus: "none",
      hostKeyFingerprints: [],
    });
    expect(m.lastError).toBeUndefined();
    expect(m.lastUpdateAt).toBeUndefined();
    const row = await svc.deps.prisma.remoteMirror.findUniqueOrThrow({ where: { id: m.id } });
    expect(row.url).toBe("https://example.com/a/b.git");
    expect(Buffer.from(row.encryptedCredentials!).toString("latin1")).not.toContain("s3cret");
    expect(svc.deps.box.openJson(row.encryptedCredentials!)).toEqual({ user: "bob", password: "s3cret" });
    expect(row.diskPath).toBe("@hashed/aa/bb/x.git");

    // Listing, reading: the same masked URL, never the secret.
    const list = await client.ListMirrors({ projectId: 1, page: 0, perPage: 0 });
    expect(list.total).toBe(1);
    expect(list.mirrors[0]!.url).toBe("https://*****:*****@example.com/a/b.git");
    expect(JSON.stringify(await client.GetMirror({ projectId: 1, mirrorId: m.id }))).not.toContain("s3cret");
  });

  it("keeps a git user visible and a URL without credentials as it is", async () => {
    const ssh = await client.CreateMirror({
      projectId: 2,
      diskPath: "@hashed/aa/bb/y.git",
      url: "ssh://git@example.com/a.git",
      authMethod: "ssh_public_key",
      enabled: true,
    });
    expect(ssh.url).toBe("ssh://git@example.com/a.git");
    const plain = await client.CreateMirror({ projectId: 2, diskPath: "@hashed/aa/bb/y.git", url: "https://example.com/p.git" });
    expect(plain.url).toBe("https://example.com/p.git");
    expect((await svc.deps.prisma.remoteMirror.findUniqueOrThrow({ where: { id: plain.id } })).encryptedCredentials).toBeNull();
  });

  it("refuses bad URLs with GitLab's url errors, and private addresses unless allowed", async () => {
    const bad = async (c: PromiseClient<MirrorServiceDefinition>, url: string) =>
      body(await fail(c.CreateMirror({ projectId: 3, diskPath: "@hashed/a/b/c.git", url })));
    expect(await bad(client, "ftp://foo:bar@test.com")).toEqual({ message: { url: ["is blocked: Only allowed schemes are http, https, ssh, git"] } });
    expect(await bad(client, "not a url")).toEqual({ message: { url: ["is blocked: URI is invalid"] } });
    expect(await bad(strict, "http://127.0.0.1:9/x.git")).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    expect(await bad(strict, "https://10.1.2.3/x.git")).toEqual({ message: { url: ["is blocked: Requests to the local network are not allowed"] } });
    expect(await client.CountMirrors({ projectId: 3 })).toEqual({ count: 0 });
  });

  it("validates auth_method and the regex; only_protected_branches wins over a regex", async () => {
    expect(
      body(await fail(client.CreateMirror({ projectId: 4, diskPath: "@hashed/a/b/c.git", url: "https://example.com/x.git", authMethod: "magic" }))),
    ).toEqual({
      message: { auth_method: ["is not included in the list"] },
    });
    const badRegex = async (mirrorBranchRegex: string) =>
      body(await fail(client.CreateMirror({ projectId: 4, diskPath: "@hashed/a/b/c.git", url: "https://example.com/x.git", mirrorBranchRegex })));
    expect(await badRegex("(")).toEqual({ message: { mirror_branch_regex: ["not valid RE2 syntax: missing ): ("] } });
    // JavaScript takes these; RE2 (GitLab's engine, linear time) has no backreferences or lookahead.
    expect(await badRegex("^(r)\\1")).toEqual({ message: { mirror_branch_regex: ["not valid RE2 syntax: invalid escape sequence: \\1"] } });
    expect(await badRegex("^(?!wip)")).toEqual({ message: { mirror_branch_regex: ["not valid RE2 syntax: invalid perl operator: (?!"] } });
    expect(
      (await client.CreateMirror({ projectId: 4, diskPath: "@hashed/a/b/c.git", url: "https://example.com/y.git", mirrorBranchRegex: "(?i)^RELEASE" }))
        .mirrorBranchRegex,
    ).toBe("(?i)^RELEASE");
    const m = await client.CreateMirror({ projectId: 4, diskPath: "@hashed/a/b/c.git", url: "https://example.com/x.git", mirrorBranchRegex: "^release" });
    expect(m.mirrorBranchRegex).toBe("^release");
    const p = await client.UpdateMirror({ projectId: 4, mirrorId: m.id, onlyProtectedBranches: true });
    expect(p).toMatchObject({ onlyProtectedBranches: true });
    expect(p.mirrorBranchRegex).toBeUndefined();
    const r = await client.UpdateMirror({ projectId: 4, mirrorId: m.id, mirrorBranchRegex: "^main$" });
    expect(r).toMatchObject({ onlyProtectedBranches: false, mirrorBranchRegex: "^main$" });
    expect(body(await fail(client.UpdateMirror({ projectId: 4, mirrorId: m.id, authMethod: "magic" })))).toEqual({
      message: { auth_method: ["is not included in the list"] },
    });
  });

  it("updates only the given fields; deletes; another project's mirror is 404 Not found", async () => {
    const m = await client.CreateMirror({ projectId: 5, diskPath: "@hashed/a/b/c.git", url: "https://u:p@example.com/x.git" });
    const u = await client.UpdateMirror({ projectId: 5, mirrorId: m.id, enabled: true, keepDivergentRefs: true });
    expect(u).toMatchObject({ enabled: true, keepDivergentRefs: true, onlyProtectedBranches: false, url: "https://*****:*****@example.com/x.git" });
    const calls = [
      client.GetMirror({ projectId: 6, mirrorId: m.id }),
      client.UpdateMirror({ projectId: 6, mirrorId: m.id, enabled: false }),
      client.DeleteMirror({ projectId: 6, mirrorId: m.id }),
      client.SyncMirror({ projectId: 6, mirrorId: m.id }),
      client.GetMirror({ projectId: 5, mirrorId: 999_999 }),
    ].map(fail);
    for (const call of calls) {
      const e = await call;
      expect(e.code).toBe(5);
      expect(body(e)).toEqual({ message: "404 Not found" });
    }
    await client.DeleteMirror({ projectId: 5, mirrorId: m.id });
    expect((await fail(client.GetMirror({ projectId: 5, mirrorId: m.id }))).code).toBe(5);
  });

  it("refuses to sync a disabled mirror with GitLab's message", async () => {
    const m = await client.CreateMirror({ projectId: 7, diskPath: "@hashed/a/b/c.git", url: "https://example.com/x.git" });
    expect(body(await fail(client.SyncMirror({ projectId: 7, mirrorId: m.id })))).toEqual({
      message: "Cannot proceed with the push mirroring. Please verify your mirror configuration.",
    });
    expect((await client.GetMirror({ projectId: 7, mirrorId: m.id })).updateStatus).toBe("none");
  });

  it("serves an ssh_public_key mirror's ed25519 public key, whose private half ssh-keygen reads", async () => {
    const m = await client.CreateMirror({ projectId: 8, diskPath: "@hashed/a/b/c.git", url: "ssh://git@example.com/x.git", authMethod: "ssh_public_key" });
    const { publicKey } = await client.GetMirrorPublicKey({ projectId: 8, mirrorId: m.id });
    expect(publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/=]+ /);
    const row = await svc.deps.prisma.remoteMirror.findUniqueOrThrow({ where: { id: m.id } });
    const { sshPrivateKey } = svc.deps.box.openJson<{ sshPrivateKey: string }>(row.encryptedCredentials!);
    const dir = mkdtempSync(path.join(os.tmpdir(), "quarry-key-"));
    try {
      writeFileSync(path.join(dir, "id"), sshPrivateKey, { mode: 0o600 });
      const derived = execFileSync("ssh-keygen", ["-y", "-f", path.join(dir, "id")], { encoding: "utf8" }).trim();
      expect(derived.split(" ").slice(0, 2)).toEqual(publicKey.split(" ").slice(0, 2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A password mirror has no public key; switching it to ssh_public_key makes one.
    const pw = await client.CreateMirror({ projectId: 8, diskPath: "@hashed/a/b/c.git", url: "https://example.com/y.git" });
    expect(body(await fail(client.GetMirrorPublicKey({ projectId: 8, mirrorId: pw.id })))).toEqual({ message: "404 Not found" });
    await client.UpdateMirror({ projectId: 8, mirrorId: pw.id, authMethod: "ssh_public_key" });
    expect((await client.GetMirrorPublicKey({ projectId: 8, mirrorId: pw.id })).publicKey).toMatch(/^ssh-ed25519 /);
  });
});
