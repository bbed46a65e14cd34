import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger, memoryLogger, silentLogger } from "./index.ts";

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

  it("memory logger keeps its lines, child bindings included, at its level", () => {
    const { log, records } = memoryLogger("hook-service", "info");
    log.child({ request_id: "abc-1" }).info({ n: 1 }, "kept");
    log.debug("below the level");
    expect(records).toEqual([expect.objectContaining({ service: "hook-service", request_id: "abc-1", n: 1, msg: "kept" })]);
  });
});
