import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-authssh-"));
let n = 0;
/** A real ed25519 public key and its SHA256 fingerprint. */
function keygen() {
  const file = path.join(dir, `k${n++}`);
  execFileSync("ssh-keygen", ["-t", "ed25519", "-N", "", "-q", "-f", file]);
  const fingerprint = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], { encoding: "utf8" }).split(" ")[1]!;
  return { key: fs.readFileSync(`${file}.pub`, "utf8").trim(), fingerprint };
}

describe("AuthorizeSshKey", () => {
  it("authenticates users' keys, and refuses unknown, expired, signing-only keys and blocked users", async () => {
    const u = await f.user();
    const k = keygen();
    await f.c.CreateSshKey({ actor: u, title: "k", key: k.key });
    expect((await f.c.AuthorizeSshKey({ fingerprint: k.fingerprint })).user?.id).toBe(u.userId);
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: keygen().fingerprint }))).status).toBe(401);

    const signing = keygen();
    await f.c.CreateSshKey({ actor: u, title: "s", key: signing.key, usageType: "signing" });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: signing.fingerprint }))).status).toBe(401);

    const expiring = keygen();
    const created = await f.c.CreateSshKey({ actor: u, title: "e", key: expiring.key, expiresAt: "2099-01-01" });
    await f.deps.prisma.key.update({ where: { id: Number(created.id) }, data: { expiresAt: new Date("2020-01-01") } });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: expiring.fingerprint }))).status).toBe(401);

    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { state: "blocked" } });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: k.fingerprint }))).status).toBe(401);
  });

  it("answers Authorize's question for users and GitLab's deploy key rules for deploy keys", async () => {
    const owner = await f.user();
    const project = await f.c.CreateProject({ actor: owner, name: `p${n++}`, visibility: "private" });
    const k = keygen();
    await f.c.CreateSshKey({ actor: owner, title: "k", key: k.key });
    const pushing = await f.c.AuthorizeSshKey({ fingerprint: k.fingerprint, project: project.pathWithNamespace, action: "push_code" });
    expect(pushing).toMatchObject({ deployKey: false, accessLevel: 50, project: { id: project.id } });

    const stranger = await f.user();
    const sk = keygen();
    await f.c.CreateSshKey({ actor: stranger, title: "k", key: sk.key });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: sk.fingerprint, project: String(project.id), action: "download_code" }))).status).toBe(404);

    const ro = keygen();
    const rw = keygen();
    await f.c.CreateDeployKey({ actor: owner, project: String(project.id), title: "ro", key: ro.key });
    await f.c.CreateDeployKey({ actor: owner, project: String(project.id), title: "rw", key: rw.key, canPush: true });
    const read = await f.c.AuthorizeSshKey({ fingerprint: ro.fingerprint, project: String(project.id), action: "download_code" });
    expect(read).toMatchObject({ deployKey: true, accessLevel: 0, user: { id: owner.userId } });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: ro.fingerprint, project: String(project.id), action: "push_code" }))).status).toBe(403);
    expect((await f.c.AuthorizeSshKey({ fingerprint: rw.fingerprint, project: String(project.id), action: "push_code" })).accessLevel).toBe(30);
    const elsewhere = await f.c.CreateProject({ actor: owner, name: `q${n++}`, visibility: "public" });
    expect((await failure(f.c.AuthorizeSshKey({ fingerprint: rw.fingerprint, project: String(elsewhere.id), action: "download_code" }))).status).toBe(404);
  });
});
