import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger, silentLogger } from "./index.ts";

describe("logger", () => {
  it("tags every line with the service and honours the level", () => {
    const log = createLogger("identity-service", "warn");
    expect(log.level).toBe("warn");
    expect(log.bindings()).toMatchObject({ service: "identity-service" });
    expect(log.isLevelEnabled("info")).toBe(false);
  });

  it("silent logger writes nothing", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = silentLogger();
    log.error("nope");
    pino(sink).info("yes");
    expect(lines).toHaveLength(1);
  });
});
