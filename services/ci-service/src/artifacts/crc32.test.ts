import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32 } from "./crc32.ts";

describe("crc32", () => {
  it("matches the published check values", () => {
    expect(crc32(Buffer.alloc(0))).toBe(0);
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926); // the CRC-32/ISO-HDLC check value
    expect(crc32(Buffer.from("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
  });

  it("equals the CRC zlib writes into a gzip trailer", () => {
    const data = randomBytes(1 << 20);
    const gz = gzipSync(data);
    expect(crc32(data)).toBe(gz.readUInt32LE(gz.length - 8));
  });

  it("continues across chunks: any split gives the one-shot value", () => {
    const data = randomBytes(777);
    const whole = crc32(data);
    for (const at of [0, 1, 2, 100, 776, 777]) {
      expect(crc32(data.subarray(at), crc32(data.subarray(0, at)))).toBe(whole);
    }
    let running = 0;
    for (let i = 0; i < data.length; i += 10) running = crc32(data.subarray(i, i + 10), running);
    expect(running).toBe(whole);
  });
});
