import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { loadOrCreateEncryptionKey } from "../src/stack.ts";

it("generates the embedded encryption key once, owner-readable only, and keeps it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-key-"));
  try {
    const first = loadOrCreateEncryptionKey(dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, "encryption.key")).mode & 0o777).toBe(0o600);
    expect(loadOrCreateEncryptionKey(dir)).toBe(first);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("replaces an empty key file, as a kill during the first start's write leaves it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-key-"));
  try {
    fs.writeFileSync(path.join(dir, "encryption.key"), "", { mode: 0o600 });
    const key = loadOrCreateEncryptionKey(dir);
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dir, "encryption.key"), "utf8").trim()).toBe(key);
    expect(fs.statSync(path.join(dir, "encryption.key")).mode & 0o777).toBe(0o600);
    expect(loadOrCreateEncryptionKey(dir)).toBe(key);
    expect(fs.readdirSync(dir)).toEqual(["encryption.key"]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
