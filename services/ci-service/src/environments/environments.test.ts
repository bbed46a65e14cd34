import { describe, expect, it } from "vitest";
import { deploymentStatusFor, environmentSlug, expandEnvironment, guessTier } from "./environments.ts";

describe("environments", () => {
  it("slugs names as Gitlab::Slug::Environment: kept when already valid, else shortened with a stable suffix", () => {
    expect(environmentSlug("production")).toBe("production");
    const review = environmentSlug("review/feature-branch-with-a-long-name");
    expect(review).toMatch(/^review-feature-br-[a-z0-9]{6}$/);
    expect(environmentSlug("review/feature-branch-with-a-long-name")).toBe(review);
    expect(environmentSlug("Production")).toMatch(/^production-[a-z0-9]{6}$/);
    expect(environmentSlug("1st")).toMatch(/^env-1st-[a-z0-9]{6}$/);
  });

  it("guesses tiers from names as Environment#guess_tier", () => {
    expect(["review/x", "development", "qa", "staging", "production", "live", "sandbox"].map(guessTier)).toEqual([
      "development",
      "development",
      "testing",
      "staging",
      "production",
      "production",
      "other",
    ]);
  });

  it("expands variables in name and url and defaults the action to start", () => {
    expect(
      expandEnvironment({ name: "review/$CI_COMMIT_REF_SLUG", url: "https://${CI_COMMIT_REF_SLUG}.example.com" }, { CI_COMMIT_REF_SLUG: "topic" }),
    ).toEqual({
      name: "review/topic",
      url: "https://topic.example.com",
      action: "start",
    });
  });

  it("maps job statuses to deployment statuses as Deployment#sync_status_with", () => {
    expect(["created", "pending", "running", "success", "failed", "canceled", "skipped", "manual"].map(deploymentStatusFor)).toEqual([
      "created",
      null,
      "running",
      "success",
      "failed",
      "canceled",
      "skipped",
      "blocked",
    ]);
  });
});
