// Who of the pipeline's user's levels hears of a finished pipeline (NotificationRecipient#notifiable?
// for a :watch recipient with the pipeline custom actions).
import { expect, it } from "vitest";
import { pipelineUserNotified } from "./pipeline.ts";

const setting = (level: string, events: Record<string, boolean> = {}) => ({ level, events, email: "u@x.test" });

it("watch and participating get failed and fixed pipelines, not successful ones; custom its switches; mention and disabled nothing", () => {
  const table = ["watch", "participating", "mention", "disabled"].map((level) =>
    (["failed_pipeline", "fixed_pipeline", "success_pipeline"] as const).map((a) => pipelineUserNotified(setting(level), a)),
  );
  expect(table).toEqual([
    [true, true, false],
    [true, true, false],
    [false, false, false],
    [false, false, false],
  ]);
  expect(pipelineUserNotified(setting("custom", { success_pipeline: true }), "success_pipeline")).toBe(true);
  expect(pipelineUserNotified(setting("custom", { failed_pipeline: false }), "failed_pipeline")).toBe(false);
  expect(pipelineUserNotified({ ...setting("watch"), email: "" }, "failed_pipeline")).toBe(false);
});
