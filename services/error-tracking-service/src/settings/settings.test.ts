import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type ErrorTrackingTestContext } from "../../test/support.ts";

let t: ErrorTrackingTestContext;
beforeAll(async () => {
  t = await setUp("et_settings");
});
afterAll(() => t?.close());

describe("GetSettings / UpdateSettings", () => {
  it("answers 404 Error Tracking Setting Not Found for a project never configured, for GET and PATCH alike", async () => {
    expect(await failure(t.client.GetSettings({ projectId: 1 }))).toEqual({
      code: status.NOT_FOUND,
      body: { message: "404 Error Tracking Setting Not Found" },
    });
    expect(await failure(t.client.UpdateSettings({ projectId: 1, active: true }))).toEqual({
      code: status.NOT_FOUND,
      body: { message: "404 Error Tracking Setting Not Found" },
    });
    expect(await failure(t.client.GetSettings({ projectId: 1 }))).toMatchObject({ code: status.NOT_FOUND });
  });

  it("PUT creates the settings, PATCH then changes active and leaves integrated alone unless given", async () => {
    expect(await t.client.UpdateSettings({ projectId: 2, active: true, integrated: true, create: true })).toEqual({
      projectId: 2,
      active: true,
      integrated: true,
    });
    expect(await t.client.UpdateSettings({ projectId: 2, active: false })).toMatchObject({ active: false, integrated: true });
    expect(await t.client.UpdateSettings({ projectId: 2, active: true, integrated: false })).toMatchObject({ active: true, integrated: false });
    expect(await t.client.GetSettings({ projectId: 2 })).toMatchObject({ projectId: 2, active: true, integrated: false });
    // Another project's settings are untouched.
    expect(await failure(t.client.GetSettings({ projectId: 3 }))).toMatchObject({ code: status.NOT_FOUND });
  });
});
