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
