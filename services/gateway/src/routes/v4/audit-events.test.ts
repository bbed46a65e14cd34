import { describe, expect, it } from "vitest";
import { auditWindow } from "./audit-events.ts";

const now = new Date("2026-11-26T12:00:00Z");

describe("auditWindow", () => {
  it("defaults to the 30 days before created_before, itself defaulting to now", () => {
    expect(auditWindow({}, now)).toEqual({ createdAfter: "2026-10-27T12:00:00.000Z", createdBefore: "2026-11-26T12:00:00.000Z" });
    expect(auditWindow({ created_before: "2026-06-30T00:00:00Z" }, now)).toEqual({
      createdAfter: "2026-05-31T00:00:00.000Z",
      createdBefore: "2026-06-30T00:00:00.000Z",
    });
  });

  it("keeps a window of 30 days or less and refuses a wider one with 400", () => {
    expect(auditWindow({ created_after: "2026-10-27T12:00:00Z" }, now).createdAfter).toBe("2026-10-27T12:00:00.000Z");
    expect(() => auditWindow({ created_after: "2026-10-27T11:59:59Z" }, now)).toThrow(
      expect.objectContaining({ status: 400, body: { message: "400 Bad request - Date range limited to 30 days" } }),
    );
  });
});
