import { describe, expect, it } from "vitest";
import { loadYaml, Reference } from "./load-yaml.ts";

const value = (text: string) => {
  const r = loadYaml(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe("loadYaml", () => {
  it("reads YAML 1.1 booleans like Psych, but not y/n", () => {
    expect(value("a: yes\nb: off\nc: Y\nd: n\ne: true\n")).toEqual({ a: true, b: false, c: "Y", d: "n", e: true });
  });

  it("keeps dates as strings", () => {
    expect(value("d: 2024-01-02\n")).toEqual({ d: "2024-01-02" });
  });

  it("keeps the last of repeated keys", () => {
    expect(value("a: 1\na: 2\n")).toEqual({ a: 2 });
  });

  it("resolves anchors, aliases and merge keys", () => {
    expect(value("x: &x {a: 1, b: 2}\ny:\n  <<: *x\n  b: 3\n")).toEqual({ x: { a: 1, b: 2 }, y: { a: 1, b: 3 } });
  });

  it("turns !reference tags into references", () => {
    const loaded = value("s: !reference [.a, script]\n") as { s: Reference };
    expect(loaded.s).toBeInstanceOf(Reference);
    expect(loaded.s.path).toEqual([".a", "script"]);
  });

  it("reports syntax errors with their position", () => {
    expect(loadYaml("a:\n  b: [1\n")).toEqual({
      ok: false,
      error: expect.stringMatching(/^\(<unknown>\): flow sequence .* at line 3 column 1$/),
    });
  });

  it("stops alias bombs", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 8; i++)
      bomb.push(
        `${"bcdefghi"[i]}: &${"bcdefghi"[i]} [${Array(10)
          .fill(`*${i === 0 ? "a" : "bcdefghi"[i - 1]}`)
          .join(", ")}]`,
      );
    const result = loadYaml(bomb.join("\n"));
    expect(result.ok).toBe(false);
  });
});
