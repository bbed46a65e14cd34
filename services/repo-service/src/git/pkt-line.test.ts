import { describe, expect, it } from "vitest";
import { CommandReader, isNullSha } from "./pkt-line.ts";

const pkt = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, "0") + s;
const A = "a".repeat(40);
const B = "b".repeat(40);

describe("CommandReader", () => {
  it("reads commands split across chunks, skipping capabilities and shallow lines", () => {
    const body = Buffer.from(
      pkt(`shallow ${A}\n`) + pkt(`${A} ${B} refs/heads/main\0report-status side-band-64k\n`) + pkt(`${"0".repeat(40)} ${B} refs/tags/v1\n`) + "0000PACK",
    );
    const reader = new CommandReader();
    const cut = 70;
    expect(reader.push(body.subarray(0, cut))).toBe(false);
    expect(reader.push(body.subarray(cut))).toBe(true);
    expect(reader.commands).toEqual([
      { oldSha: A, newSha: B, ref: "refs/heads/main" },
      { oldSha: "0".repeat(40), newSha: B, ref: "refs/tags/v1" },
    ]);
  });

  it("refuses a malformed pkt-line", () => {
    expect(() => new CommandReader().push(Buffer.from("zzzz"))).toThrow("malformed pkt-line");
    expect(() => new CommandReader().push(Buffer.from("0002"))).toThrow("malformed pkt-line");
  });

  it("knows null shas of both hash sizes", () => {
    expect(isNullSha("0".repeat(40))).toBe(true);
    expect(isNullSha("0".repeat(64))).toBe(true);
    expect(isNullSha(A)).toBe(false);
  });
});
