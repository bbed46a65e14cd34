import { describe, expect, it } from "vitest";
import { summarizeEvent } from "./sentry-event.ts";

const received = new Date("2026-11-26T00:00:00.000Z");
const frames = (...fns: [string, boolean][]) => fns.map(([fn, inApp]) => ({ function: fn, filename: `/app/${fn}.js`, in_app: inApp }));

describe("summarizeEvent", () => {
  it("takes the raised exception (the last of a chain) and its last in-app frame as the culprit", () => {
    const s = summarizeEvent(
      {
        event_id: "a".repeat(32),
        platform: "node",
        timestamp: 1_700_000_000.5,
        exception: {
          values: [
            { type: "CauseError", value: "root cause" },
            { type: "Error", value: "wrapped", stacktrace: { frames: frames(["main", true], ["handle", true], ["libCall", false]) } },
          ],
        },
      },
      received,
    );
    expect(s).toMatchObject({ name: "Error", description: "wrapped", actor: "handle(/app/handle.js)", platform: "node", level: "error" });
    expect(s.occurredAt.toISOString()).toBe("2023-11-14T22:13:20.500Z");
  });

  it("groups by type, message and raising frame unless the event names its fingerprint", () => {
    const base = { exception: { values: [{ type: "E", value: "v", stacktrace: { frames: frames(["f", true]) } }] } };
    const key = (e: Record<string, unknown>) => summarizeEvent(e, received).fingerprint;
    expect(key(base)).toBe(key({ ...base, event_id: "other", timestamp: 5 }));
    expect(key(base)).not.toBe(key({ exception: { values: [{ type: "E", value: "v", stacktrace: { frames: frames(["g", true]) } }] } }));
    expect(key(base)).not.toBe(key({ exception: { values: [{ type: "E", value: "w", stacktrace: { frames: frames(["f", true]) } }] } }));
    expect(key({ ...base, fingerprint: ["{{ default }}"] })).toBe(key(base));
    expect(key({ ...base, fingerprint: ["db"] })).toBe(key({ message: "anything", fingerprint: ["db"] }));
  });

  it("reads message events (logentry or message) and RFC 3339 timestamps; bad times fall back to receipt", () => {
    expect(summarizeEvent({ logentry: { message: "disk %s", formatted: "disk full" }, timestamp: "2026-01-02T03:04:05Z" }, received)).toMatchObject({
      name: "",
      description: "disk full",
      occurredAt: new Date("2026-01-02T03:04:05Z"),
    });
    expect(summarizeEvent({ message: "plain", timestamp: "garbage", level: "warning" }, received)).toMatchObject({
      description: "plain",
      level: "warning",
      occurredAt: received,
    });
    expect(summarizeEvent({ message: "ancient", timestamp: -1e13 }, received).occurredAt).toEqual(received);
  });
});
