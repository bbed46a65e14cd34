import { describe, expect, it } from "vitest";
import { descriptor } from "./generated/descriptor.ts";
import { ciV1, commonV1, hookV1, identityV1, repoV1 } from "./index.ts";

describe("embedded proto descriptor", () => {
  it("exposes every RPC of the identity contract with camelCase fields", () => {
    const methods = Object.keys(identityV1.IdentityService.service);
    expect(methods).toContain("Authenticate");
    expect(methods).toContain("Authorize");
    expect(methods).toEqual(expect.arrayContaining(["CreateUpload", "ListUploads", "GetUploadFile", "DeleteUpload"]));
    const usersAdmin = ["ChangeUserState", "ListUserMemberships", "ListCustomAttributes", "GetCustomAttribute", "SetCustomAttribute", "DeleteCustomAttribute"];
    expect(methods).toEqual(expect.arrayContaining(usersAdmin));
    const sshKeys = ["ListSshKeys", "CreateSshKey", "FindSshKey", "ListDeployKeys", "EnableDeployKey", "AuthorizeSshKey", "CreateGroupSshCertificate"];
    expect(methods).toEqual(expect.arrayContaining(sshKeys));
    const accounts = [
      "CreateServiceAccount",
      "ListServiceAccounts",
      "UpdateServiceAccount",
      "DeleteServiceAccount",
      "CreateServiceAccountToken",
      "ListServiceAccountTokens",
      "RevokeServiceAccountToken",
      "ListEmails",
      "GetEmail",
      "CreateEmail",
      "DeleteEmail",
      "ConfirmEmail",
    ];
    expect(methods).toEqual(expect.arrayContaining(accounts));
    expect(methods).toEqual(expect.arrayContaining(["TransferGroup", "TransferProject"]));
    expect(methods).toEqual(expect.arrayContaining(["StartTwoFactor", "VerifyTwoFactor", "DisableOwnTwoFactor", "DisableTwoFactor"]));
    expect(methods).toEqual(
      expect.arrayContaining(["ListDeployTokens", "GetDeployToken", "CreateDeployToken", "DeleteDeployToken", "AuthenticateDeployToken"]),
    );
    expect(methods).toEqual(expect.arrayContaining(["ListGpgKeys", "GetGpgKey", "CreateGpgKey", "DeleteGpgKey", "VerifySignature"]));
    const enterprise = [
      "ListEnterpriseUsers",
      "GetEnterpriseUser",
      "DeleteEnterpriseUser",
      "DisableEnterpriseUserTwoFactor",
      "ListVerifiedDomains",
      "CreateVerifiedDomain",
      "DeleteVerifiedDomain",
      "VerifyVerifiedDomain",
      "RegenerateRecoveryCodes",
    ];
    expect(methods).toEqual(expect.arrayContaining(enterprise));
    expect(methods).toEqual(expect.arrayContaining(["ListUserActivities"]));
    expect(methods).toHaveLength(102);
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

  it("answers VerifyTwoFactor with recovery codes that an Empty reader still accepts", () => {
    const def = identityV1.IdentityService.service.VerifyTwoFactor;
    expect(def.responseDeserialize(def.responseSerialize({ codes: ["a", "b"] }))).toMatchObject({ codes: ["a", "b"] });
    // The reply used to be Empty: zero bytes still read as a reply without codes.
    expect(def.responseDeserialize(Buffer.alloc(0))).toMatchObject({ codes: [] });
  });

  it("loads the other services", () => {
    expect(Object.keys(repoV1.RepoService.service)).toContain("CreateRepository");
    const snippetRpcs = ["CreateSnippetRepository", "CommitSnippetFiles", "ListSnippetFiles", "ReadSnippetFile", "DeleteSnippetRepository"];
    expect(Object.keys(repoV1.RepoService.service)).toEqual(expect.arrayContaining(snippetRpcs));
    expect(Object.keys(hookV1.HookService.service)).toContain("ListRecordedEvents");
    expect(Object.keys(ciV1.CiService.service)).toEqual(expect.arrayContaining(["GetGroupRunnersTokens", "ResetGroupRunnersToken"]));
  });
});

describe("quarry.common.v1 (Actor, PageRequest, PageInfo moved out of quarry.identity.v1)", () => {
  // Bytes as encoded before the move, when the messages were quarry.identity.v1's.
  const GET_USER = "0a04082a10011007";
  const LIST_USERS_REQUEST = "0a0408011000120408031032";
  const LIST_USERS_RESPONSE = "120708d20910031832";

  it("encodes an Actor in identity requests with the same bytes as before", () => {
    const def = identityV1.IdentityService.service.GetUser;
    const bytes = Buffer.from(def.requestSerialize({ actor: { userId: 42, isAdmin: true }, id: 7 }));
    expect(bytes.toString("hex")).toBe(GET_USER);
    expect(def.requestDeserialize(Buffer.from(GET_USER, "hex"))).toMatchObject({ actor: { userId: 42, isAdmin: true }, id: 7 });
  });

  it("encodes PageRequest and PageInfo with the same bytes as before", () => {
    const def = identityV1.IdentityService.service.ListUsers;
    const request = Buffer.from(def.requestSerialize({ actor: { userId: 1, isAdmin: false }, page: { page: 3, perPage: 50 } }));
    expect(request.toString("hex")).toBe(LIST_USERS_REQUEST);
    expect(def.requestDeserialize(Buffer.from(LIST_USERS_REQUEST, "hex"))).toMatchObject({
      actor: { userId: 1, isAdmin: false },
      page: { page: 3, perPage: 50 },
    });
    const response = Buffer.from(def.responseSerialize({ users: [], pageInfo: { total: 1234, page: 3, perPage: 50 } }));
    expect(response.toString("hex")).toBe(LIST_USERS_RESPONSE);
    expect(def.responseDeserialize(Buffer.from(LIST_USERS_RESPONSE, "hex"))).toMatchObject({ users: [], pageInfo: { total: 1234, page: 3, perPage: 50 } });
  });

  it("is in the embedded descriptor, and identity's fields refer to it", () => {
    expect(Object.keys(commonV1).sort()).toEqual(["Actor", "PageInfo", "PageRequest"]);
    type Message = { fields: Record<string, { type: string } | undefined> };
    type Nested<T> = { nested: T };
    const tree = descriptor as unknown as Nested<{ quarry: Nested<{ identity: Nested<{ v1: Nested<Record<string, Message | undefined>> }> }> }>;
    const identity = tree.nested.quarry.nested.identity.nested.v1.nested;
    expect(identity.Actor).toBeUndefined();
    expect(identity.GetUserRequest?.fields.actor?.type).toBe("quarry.common.v1.Actor");
    expect(identity.ListUsersRequest?.fields.page?.type).toBe("quarry.common.v1.PageRequest");
    expect(identity.ListUsersResponse?.fields.pageInfo?.type).toBe("quarry.common.v1.PageInfo");
  });
});
