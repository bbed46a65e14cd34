import { describe, expect, it } from "vitest";
import { hookV1, identityV1, repoV1 } from "./index.ts";

describe("embedded proto descriptor", () => {
  it("exposes every RPC of the identity contract with camelCase fields", () => {
    const methods = Object.keys(identityV1.IdentityService.service);
    expect(methods).toContain("Authenticate");
    expect(methods).toContain("Authorize");
    expect(methods).toHaveLength(28);
    const def = identityV1.IdentityService.service.CreateProject;
    const bytes = def.requestSerialize({ name: "x", initializeWithReadme: true, namespaceId: 7 });
    const back = def.requestDeserialize(bytes) as { name: string; initializeWithReadme: boolean; namespaceId: number; path: string };
    expect(back).toMatchObject({ name: "x", initializeWithReadme: true, namespaceId: 7, path: "" });
  });

  it("keeps proto3 optional fields absent when unset", () => {
    const def = identityV1.IdentityService.service.UpdateUser;
    const absent = def.requestDeserialize(def.requestSerialize({ id: 1 }));
    expect(absent.username).toBeUndefined();
    const present = def.requestDeserialize(def.requestSerialize({ id: 1, username: "" }));
    expect(present.username).toBe("");
  });

  it("loads the other services", () => {
    expect(Object.keys(repoV1.RepoService.service)).toContain("CreateRepository");
    expect(Object.keys(hookV1.HookService.service)).toContain("ListRecordedEvents");
  });
});
