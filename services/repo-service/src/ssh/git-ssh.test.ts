import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keyFingerprint, parseGitCommand } from "./git-ssh.ts";
import { loadOrCreateHostKey } from "./host-key.ts";

describe("parseGitCommand", () => {
  it("reads the commands git sends over SSH", () => {
    expect(parseGitCommand("git-upload-pack '/group/sub/project.git'")).toEqual({ service: "git-upload-pack", path: "group/sub/project" });
    expect(parseGitCommand("git-receive-pack 'group/project.git'")).toEqual({ service: "git-receive-pack", path: "group/project" });
    expect(parseGitCommand("git upload-pack 'group/project'")).toEqual({ service: "git-upload-pack", path: "group/project" });
  });

  it("refuses anything else", () => {
    for (const c of [
      "ls /",
      "git-upload-archive 'g/p.git'",
      "git-upload-pack '../etc/passwd'",
      "git-upload-pack 'g/./p'",
      "git-upload-pack ''",
      "sh -c 'git-upload-pack g/p'",
    ]) {
      expect(parseGitCommand(c)).toBeNull();
    }
  });
});

describe("keyFingerprint", () => {
  it("is ssh-keygen's SHA256 fingerprint of the key blob", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-fp-"));
    execFileSync("ssh-keygen", ["-t", "ed25519", "-N", "", "-q", "-f", path.join(dir, "k")]);
    const blob = Buffer.from(fs.readFileSync(path.join(dir, "k.pub"), "utf8").split(" ")[1]!, "base64");
    const printed = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", path.join(dir, "k.pub")], { encoding: "utf8" }).split(" ")[1];
    expect(keyFingerprint(blob)).toBe(printed);
  });
});

describe("loadOrCreateHostKey", () => {
  it("generates an OpenSSH ed25519 key once and keeps it", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quarry-hostkey-")), "ssh_host_ed25519_key");
    const first = loadOrCreateHostKey(file);
    expect(first).toContain("BEGIN OPENSSH PRIVATE KEY");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateHostKey(file)).toBe(first);
    // ssh-keygen reads it and derives the public key written beside it.
    expect(execFileSync("ssh-keygen", ["-y", "-f", file], { encoding: "utf8" }).split(" ").slice(0, 2)).toEqual(
      fs.readFileSync(`${file}.pub`, "utf8").split(" ").slice(0, 2),
    );
  });
});
