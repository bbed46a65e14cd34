import { describe, expect, it } from "vitest";
import { EnvError, envAddress, envBoolean, envPort, parseEnv, z } from "./index.ts";

const shape = {
  PORT: envPort(8080),
  FLAG: envBoolean(false),
  PEER: envAddress("127.0.0.1:5000"),
  NAME: z.string().optional(),
};

describe("parseEnv", () => {
  it("applies defaults and treats empty strings as unset", () => {
    expect(parseEnv(shape, { PORT: "", FLAG: undefined })).toEqual({ PORT: 8080, FLAG: false, PEER: "127.0.0.1:5000" });
  });

  it("parses booleans case-insensitively and ports as numbers", () => {
    expect(parseEnv(shape, { PORT: "9", FLAG: "TRUE", NAME: "x" })).toMatchObject({ PORT: 9, FLAG: true, NAME: "x" });
    expect(parseEnv(shape, { FLAG: "0" }).FLAG).toBe(false);
  });

  it("reports every invalid variable at once", () => {
    try {
      parseEnv(shape, { PORT: "70000", FLAG: "maybe", PEER: "nohost" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      expect((err as EnvError).issues.map((i) => i.split(":")[0])).toEqual(["PORT", "FLAG", "PEER"]);
    }
  });
});
