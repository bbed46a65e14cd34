import { describe, expect, it } from "vitest";
import { createSecretBox } from "./index.ts";

const KEY = "k".repeat(32);

describe("createSecretBox", () => {
  it("round-trips and never stores the plaintext", () => {
    const box = createSecretBox(KEY);
    const sealed = box.seal("hunter2-password");
    expect(sealed.includes(Buffer.from("hunter2"))).toBe(false);
    expect(box.open(sealed)).toBe("hunter2-password");
    expect(box.openJson(box.sealJson({ a: [1, "x"] }))).toEqual({ a: [1, "x"] });
  });

  it("uses a fresh IV every time", () => {
    const box = createSecretBox(KEY);
    expect(box.seal("same").equals(box.seal("same"))).toBe(false);
  });

  it("refuses another key, another context, tampering and short keys", () => {
    const sealed = createSecretBox(KEY, "hooks").seal("secret");
    expect(() => createSecretBox("j".repeat(32), "hooks").open(sealed)).toThrow();
    expect(() => createSecretBox(KEY, "mirrors").open(sealed)).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => createSecretBox(KEY, "hooks").open(tampered)).toThrow();
    expect(() => createSecretBox(KEY, "hooks").open(Buffer.from("junk"))).toThrow("not a sealed secret");
    expect(() => createSecretBox("short")).toThrow("at least 32");
  });
});
